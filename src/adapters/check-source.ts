import { isObservable } from 'rxjs';

/**
 * Throws a `TypeError` unless `events$` is an Observable. The writers take the stream first
 * (`(events$, target, options)`); a plain-JavaScript caller that passes the target first would
 * otherwise get a confusing failure deep inside, or none until the response hangs.
 *
 * @param signature - How the adapter is called, for the message, e.g. `'streamSse(events$, res, options)'`.
 * @example
 * ```ts
 * checkSource(events$, 'writeNdjson(events$, writable, options)');
 * ```
 */
export function checkSource(events$: unknown, signature: string): void {
  if (!isObservable(events$)) {
    throw new TypeError(`${signature}: the first argument must be the run's Observable of events, got ${describe(events$)}`);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return (value as object).constructor?.name ?? 'an object';
}
