/**
 * How many `TaskWrap`s are nested around the innermost value of untrusted parsed JSON,
 * counted in a loop (a recursive walk of a line nested 50,000 deep overflows the stack).
 * Returns `undefined` as soon as the count passes `limit`, without walking further.
 *
 * @example
 * ```ts
 * if (taskWrapDepth(JSON.parse(line), 64) === undefined) throw new Error('nested too deep');
 * ```
 */
export function taskWrapDepth(value: unknown, limit: number): number | undefined {
  let depth = 0;
  let current = value;
  while (typeof current === 'object' && current !== null && (current as { type?: unknown }).type === 'TaskWrap') {
    depth += 1;
    if (depth > limit) return undefined;
    current = (current as { event?: unknown }).event;
  }
  return depth;
}
