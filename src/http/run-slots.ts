import { HttpFailure } from './http-failure.js';

/** Seconds a client refused for too many runs is told to wait (`Retry-After`). */
const RETRY_AFTER_S = 5;

/**
 * The runs a handler lets run at once: a start takes a slot before its body is read (so
 * bodies on their way count too, and the memory they hold is bounded) and gives it back when
 * its run settles, or at once when it does not start.
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

  /**
   * @param max - runs that may run at once, a whole number of at least 1
   * @throws RangeError for any other `max`
   */
  constructor(private readonly max: number) {
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`maxRuns must be a whole number, at least 1, got ${String(max)}`);
  }

  /** How many slots are taken now. */
  get taken(): number {
    return this.#taken;
  }

  /** Takes a slot and returns its release (idempotent), or throws a `429` HTTP failure with `Retry-After` (answered as such by the handlers). */
  take(): () => void {
    if (this.#taken >= this.max) {
      throw new HttpFailure(429, `too many runs at once: ${this.max} are running here (maxRuns); try again when one has ended`, {
        'retry-after': String(RETRY_AFTER_S),
      });
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
