/**
 * What an approval id can be: `approval_<uuid>` as the engine makes them (tool-gate.ts), or
 * any printable ASCII up to 256 characters (nothing to escape in a URL path segment, a log
 * line or a Redis key). The HTTP routes refuse any other before asking the engine, and a
 * launcher refuses an approval a worker relays under any other: both ends of the wire check
 * the one format.
 *
 * @internal
 */
export const APPROVAL_ID_FORMAT = /^[\x21-\x7e]{1,256}$/;

/**
 * Whether `id` has the approval id format ({@link APPROVAL_ID_FORMAT}).
 *
 * @example
 * ```ts
 * isApprovalId('approval_1b9d6bcd'); // true
 * isApprovalId('a b'); // false
 * ```
 *
 * @internal
 */
export function isApprovalId(id: unknown): id is string {
  return typeof id === 'string' && APPROVAL_ID_FORMAT.test(id);
}
