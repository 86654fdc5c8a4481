/**
 * How many values `value` holds counted as JSON would write them (a shared one each time it
 * is reached; an array or object counts one, plus what it holds), stopping soon after `limit`:
 * the answer is exact up to `limit`, and only says "more than `limit`" past it. Without
 * recursion; its work is about `limit` steps plus reading the keys of each object it reaches
 * once (a shared one is listed once, however often it is reached: never more than the value
 * holds), so a planted value of millions (or of YAML aliases
 * repeating aliases, which would write billions) costs little to refuse.
 *
 * @example
 * ```ts
 * expandedSize({ a: [1, 2] }, 100); // 4: the object, the array, 1 and 2
 * expandedSize(Array(1e6).fill(0), 10) > 10; // true, after about 11 steps
 * ```
 */
export function expandedSize(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  // An alias reaches one object many times: listing its values each time cost limit x its width.
  const listed = new Map<object, readonly unknown[]>();
  while (stack.length > 0 && count <= limit) {
    const next = stack.pop();
    count += 1;
    if (typeof next !== 'object' || next === null) continue;
    let children = Array.isArray(next) ? (next as unknown[]) : listed.get(next);
    if (children === undefined) listed.set(next, (children = Object.values(next)));
    // One at a time (no spread): a long list must not overflow the call's argument limit.
    for (let i = 0; i < children.length && stack.length <= limit; i++) stack.push(children[i]);
  }
  return count;
}
