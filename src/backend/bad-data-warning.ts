import { onceWarner } from '../errors/warn-once.js';

/** The warning code of what {@link warnBadData} reports. */
export const BAD_REDIS_DATA = 'RXHARNESS_BAD_REDIS_DATA';

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
