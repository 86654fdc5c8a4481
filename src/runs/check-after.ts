/**
 * Refuses a position to read a run's events after that is not a seq: `after` must be a
 * non-negative safe integer (0: from the first event). Without this, `NaN` compared false
 * with every index, so a read replayed nothing and completed as if the run had no events.
 *
 * @throws TypeError naming `after` and the value.
 *
 * @example
 * ```ts
 * checkAfter(Number.NaN, 'engine.runs.attach'); // TypeError: engine.runs.attach: `after` must be ...
 * ```
 */
export function checkAfter(after: unknown, where: string): number {
  if (typeof after === 'number' && Number.isSafeInteger(after) && after >= 0) return after;
  const shown = typeof after === 'string' ? JSON.stringify(after) : String(after);
  throw new TypeError(`${where}: \`after\` must be a whole number of at least 0 (the seq of the last event seen; 0 for every event), got ${shown}`);
}
