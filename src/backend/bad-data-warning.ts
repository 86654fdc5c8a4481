/** The warning code of what {@link warnBadData} reports. */
export const BAD_REDIS_DATA = 'RXHARNESS_BAD_REDIS_DATA';

const warned = new Set<string>();

/**
 * Reports something unusable found in Redis where no run is there to carry a `Warning`
 * event (a run's log read by an attached client, a record loaded at start-up): a process
 * warning (`process.emitWarning`, code `RXHARNESS_BAD_REDIS_DATA`), once per `what` for the
 * life of the process, so a flood of bad entries does not flood the log.
 *
 * @example
 * ```ts
 * warnBadData('rxh:runs', 'rxh:runs is a string, not a hash: the runs of other engines are not listed');
 * ```
 */
export function warnBadData(what: string, message: string): void {
  if (warned.has(what)) return;
  // Bounded: the keys warned about are kept only to say each once.
  if (warned.size >= 1000) warned.delete(warned.values().next().value!);
  warned.add(what);
  process.emitWarning(message, { code: BAD_REDIS_DATA });
}
