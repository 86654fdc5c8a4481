import { onceWarner } from '../errors/warn-once.js';
import { markedHead } from '../text/marked-head.js';

/** The warning code of what {@link warnBadData} reports. */
export const BAD_REDIS_DATA = 'RXHARNESS_BAD_REDIS_DATA';

/** How much of a key a warning names: a planted key may be megabytes long. */
const SHOWN_KEY_CHARS = 200;

/**
 * Reports something unusable found in Redis where no run is there to carry a `Warning`
 * event (a run's log read by an attached client, a record loaded at start-up): a process
 * warning (code `RXHARNESS_BAD_REDIS_DATA`), once per key for the life of the process.
 *
 * @example
 * ```ts
 * warnBadData('rxh:runs', 'rxh:runs is a string, not a hash: the runs of other engines are not listed');
 * ```
 */
export const warnBadData: (what: string, message: string) => void = onceWarner(BAD_REDIS_DATA);

/**
 * A key (or any text read from Redis) as a warning names it: every control or invisible
 * character marked (`<U+001B>`), at most 200 characters once marked, its start then `…` when
 * it does not fit (`markedHead`: never half a character nor half a mark). The warning goes to
 * a terminal, and a planted key could otherwise clear the screen or hide the rest of the
 * message; bounded after marking, as a key of controls would otherwise show eight times longer.
 *
 * @example
 * ```ts
 * shownKey('rxh:task:\u001b[2J'); // 'rxh:task:<U+001B>[2J'
 * ```
 */
export function shownKey(key: string): string {
  return markedHead(key, SHOWN_KEY_CHARS);
}
