const MARKER = 'rxharness.error';
const SYMBOL = Symbol.for(MARKER);

/**
 * The base of every error rxharness throws or errors a stream with. Each has a stable `name`
 * (its class) and `code` (e.g. `SESSION_BUSY`) to branch on, and a static `isInstance` that
 * works across copies of the library (two versions in one `node_modules`, a worker thread),
 * where `instanceof` fails: it checks a marker keyed by `Symbol.for`, which every copy shares.
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
  private readonly [SYMBOL] = true;
  /** A stable, machine-readable kind, e.g. `SESSION_BUSY`, `MODEL_ERROR`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }

  /** Whether `value` is an rxharness error, from this copy of the library or another. */
  static isInstance(value: unknown): value is RxHarnessError {
    return hasErrorMarker(value, MARKER);
  }
}

/**
 * Whether `value` carries the marker `Symbol.for(marker)`: how each error class's
 * `isInstance` recognises its instances across realms and package copies.
 *
 * @example
 * ```ts
 * hasErrorMarker(error, 'rxharness.error.ModelError');
 * ```
 */
export function hasErrorMarker(value: unknown, marker: string): boolean {
  const symbol = Symbol.for(marker);
  return typeof value === 'object' && value !== null && symbol in value && (value as Record<symbol, unknown>)[symbol] === true;
}
