import { HttpFailure } from './http-failure.js';

/** Seconds a client refused for too many runs is told to wait (`Retry-After`). */
const RETRY_AFTER_S = 5;
/** The headers of a refusal: when to try again, and that this connection is done. */
const REFUSED = { 'retry-after': String(RETRY_AFTER_S), connection: 'close' } as const;

/**
 * The runs a handler lets run at once: a start takes a slot before its body is read (so
 * bodies on their way count too, and the memory they hold is bounded) and gives it back when
 * its run settles, or at once when it does not start. With `naming`, the same bound for other
 * holders: the slots of requests that start no run (`maxControlRequests`).
 *
 * @example
 * ```ts
 * const slots = new RunSlots(16);
 * const release = slots.take(); // throws a 429 HttpFailure when all 16 are taken
 * // one cap over several handlers:
 * const runs = runsHandler(engine, { maxRuns: slots });
 * const chat = chatHandler(engine, { maxRuns: slots });
 * ```
 */
export class RunSlots {
  #taken = 0;
  readonly #refusal: string;

  /**
   * @param max - runs that may run at once, a whole number of at least 1
   * @param naming - for a pool of other slots: the option that sets `max` (named by the
   *   `RangeError`) and the message of its `429`. Default: `maxRuns` and "too many runs at once".
   * @throws RangeError for any other `max`
   */
  constructor(
    private readonly max: number,
    naming?: { readonly option: string; readonly refusal: string },
  ) {
    const option = naming?.option ?? 'maxRuns';
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`${option} must be a whole number, at least 1, got ${String(max)}`);
    this.#refusal = naming?.refusal ?? `too many runs at once: ${max} are running here (maxRuns); try again when one has ended`;
  }

  /** How many slots are taken now. */
  get taken(): number {
    return this.#taken;
  }

  /**
   * Takes a slot and returns its release (idempotent), or throws a `429` HTTP failure with
   * `Retry-After` and `Connection: close` (answered as such by the handlers). The refusal
   * closes the connection: a slot is taken before the body is read, so the body of a refused
   * request is never read, and Node would otherwise keep its socket, reading and dropping
   * whatever its client trickles in, until the server's whole-request timeout.
   */
  take(): () => void {
    if (this.#taken >= this.max) {
      throw new HttpFailure(429, this.#refusal, REFUSED);
    }
    this.#taken += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#taken -= 1;
    };
  }
}
