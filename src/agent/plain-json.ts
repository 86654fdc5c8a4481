import type { JsonValue } from '../events/index.js';

/** How deep {@link isPlainJson} looks: deeper is taken as no plain JSON (a transform may build anything, cycles too). */
const MAX_DEPTH = 128;

/**
 * Whether `value` is plain JSON: `null`, a boolean, a string, a finite number, or arrays and
 * plain objects of those, nesting at most 128 deep. What a typed tool's schema made of a
 * call's arguments need not be (a `BigInt`, a `Map`, a `Date`, a class instance, a cycle):
 * such a value cannot be written to an event stream, or is written as something else (`{}`).
 *
 * @example
 * ```ts
 * isPlainJson({ target: 'production' }); // true
 * isPlainJson({ amount: 12n }); // false
 * ```
 */
export function isPlainJson(value: unknown): value is JsonValue {
  const stack: { readonly value: unknown; readonly depth: number }[] = [{ value, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const at = item.value;
    if (at === null || typeof at === 'string' || typeof at === 'boolean') continue;
    if (typeof at === 'number') {
      if (!Number.isFinite(at)) return false;
      continue;
    }
    if (typeof at !== 'object' || item.depth >= MAX_DEPTH) return false;
    const proto: unknown = Object.getPrototypeOf(at);
    if (Array.isArray(at)) {
      for (const inner of at) stack.push({ value: inner, depth: item.depth + 1 });
    } else if (proto === Object.prototype || proto === null) {
      for (const inner of Object.values(at)) stack.push({ value: inner, depth: item.depth + 1 });
    } else return false;
  }
  return true;
}
