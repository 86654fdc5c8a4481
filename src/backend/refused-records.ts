import { markInvisible } from '../text/visible-text.js';
import { shownKey, warnBadData } from './bad-data-warning.js';

/** How many refused keys one warning names (with why); the rest are counted. */
const NAMED = 3;

/**
 * The records a loader passed over, said in one warning (`warnBadData`, code
 * `RXHARNESS_BAD_REDIS_DATA`) when it is done: the count, the first keys (as `shownKey`
 * shows them: cut to 200 characters, invisible ones marked) with why each was refused, and
 * that they are left as they are. One warning per load, not one per key: ten thousand
 * planted records must not be ten thousand warnings.
 *
 * @example
 * ```ts
 * const refused = new RefusedRecords('task records in Redis', 'loaded');
 * refused.add('rxh:task:task_1', 'a running record has no field "result"');
 * refused.report(); // one warning naming rxh:task:task_1 and why
 * ```
 */
export class RefusedRecords {
  readonly #named: string[] = [];
  #count = 0;

  /**
   * @param what - What the loader reads, for the message (`task records in Redis`).
   * @param doing - What it does with a good one (`loaded`).
   */
  constructor(
    private readonly what: string,
    private readonly doing: string,
  ) {}

  /** Notes the record at `key`, refused for `problem`. */
  add(key: string, problem: string): void {
    // A planted key may be megabytes long, or hold terminal escapes: named by its start, marked.
    if (this.#count++ < NAMED) this.#named.push(`${shownKey(key)} (${markInvisible(problem)})`);
  }

  /** Says what was refused, if anything (once per first key named, for the life of the process). */
  report(): void {
    if (this.#count === 0) return;
    const more = this.#count > NAMED ? `, and ${this.#count - NAMED} more` : '';
    warnBadData(
      this.#named[0]!,
      `Skipped ${this.#count} ${this.what} that are not what an engine writes: ${this.#named.join('; ')}${more}. Not ${this.doing}, left as they are: delete them, or give the backend a prefix of its own.`,
    );
  }
}
