/**
 * The base of every error rxharness throws or errors a stream with. Each class has a stable
 * `name` and a `code` (e.g. `SESSION_BUSY`) to branch on, and a static `isInstance` that
 * works across copies of the library (two versions in one `node_modules`, a worker thread),
 * where `instanceof` fails: every error carries a marker per class of its chain, keyed by
 * `Symbol.for('rxharness.error.<CODE>')`, which every copy shares. The code, not the class
 * name, keys it, so a bundler that renames classes does not break it.
 *
 * A subclass declares its code once, as a static: the constructor and `isInstance` read it.
 *
 * @example
 * ```ts
 * engine.call(prompt, { sessionId }).catch((e: unknown) => {
 *   if (SessionBusyError.isInstance(e)) return retryLater();
 *   if (RxHarnessError.isInstance(e)) console.error(`${e.code}: ${e.message}`);
 * });
 * ```
 */
export class RxHarnessError extends Error {
  /** The code of this class's errors; each subclass has its own. */
  static readonly code: string = 'RXHARNESS_ERROR';
  /** A stable, machine-readable kind, e.g. `SESSION_BUSY`, `MODEL_ERROR`. */
  readonly code: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    const own = new.target as typeof RxHarnessError;
    this.code = own.code;
    // One marker per class of the chain, so `RxHarnessError.isInstance` holds for every one.
    for (let c: typeof RxHarnessError | undefined = own; c; c = parentOf(c)) {
      Object.defineProperty(this, Symbol.for(`rxharness.error.${c.code}`), { value: true });
    }
  }

  /** Whether `value` is an error of this class (or a subclass), from this copy of the library or another. */
  static isInstance<T extends abstract new (...args: never[]) => RxHarnessError>(this: T & { readonly code: string }, value: unknown): value is InstanceType<T> {
    const symbol = Symbol.for(`rxharness.error.${this.code}`);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[symbol] === true;
  }
}

function parentOf(c: typeof RxHarnessError): typeof RxHarnessError | undefined {
  if (c === RxHarnessError) return undefined;
  return Object.getPrototypeOf(c) as typeof RxHarnessError;
}
