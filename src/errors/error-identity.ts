import { errorMessage } from './error-message.js';
import { RxHarnessError } from './rxharness-error.js';

/** What a stored record keeps of an error, so that reading it back gives an error of the same kind. */
export interface ErrorIdentity {
  /** The error's message. */
  readonly message: string;
  /** The error's `name` (`SessionBusyError`), when it had one other than plain `Error`. */
  readonly name?: string;
  /** An rxharness error's `code` (`SESSION_BUSY`). */
  readonly code?: string;
}

/**
 * The identity of anything thrown: its message, and its `name` and `code` when it has them.
 *
 * @example
 * ```ts
 * errorIdentity(new SessionBusyError('s1', 'run_2')); // { message: 'session "s1" is busy: ...', name: 'SessionBusyError', code: 'SESSION_BUSY' }
 * ```
 */
export function errorIdentity(error: unknown): ErrorIdentity {
  const message = errorMessage(error);
  if (typeof error !== 'object' || error === null) return { message };
  const { name, code } = error as { name?: unknown; code?: unknown };
  return {
    message,
    ...(typeof name === 'string' && name !== 'Error' ? { name } : {}),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/**
 * An error made from a stored identity: one with a `code` is an {@link RxHarnessError} that
 * its class's `isInstance` recognises (`SessionBusyError.isInstance(e)`), as the original
 * was, though it is not an instance of that class (its other fields are not stored); one
 * without is a plain `Error` with the stored `name`.
 */
export function errorOfIdentity(identity: ErrorIdentity): Error {
  const { message, name, code } = identity;
  if (code === undefined) {
    const error = new Error(message);
    if (name !== undefined) error.name = name;
    return error;
  }
  const error = new RxHarnessError(message);
  Object.defineProperty(error, 'code', { value: code, enumerable: true });
  // The marker `isInstance` looks for (every rxharness error class extends RxHarnessError directly).
  Object.defineProperty(error, Symbol.for(`rxharness.error.${code}`), { value: true });
  error.name = name ?? 'RxHarnessError';
  return error;
}
