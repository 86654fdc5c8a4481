/** Whether a value is a plain key/value object (what a YAML mapping loads as). */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A list of names as a definition gives one (a list, or a comma string: `read, grep, glob`),
 * already checked against its schema: names trimmed, empty ones dropped, repeats removed.
 */
export function toNameList(value: string | readonly string[]): readonly string[] {
  const names = (typeof value === 'string' ? value.split(',') : value).map((name) => name.trim());
  return Object.freeze([...new Set(names.filter((name) => name !== ''))]);
}

/**
 * Keys no definition may use: copied with a plain assignment, `__proto__` replaces the
 * object's prototype (its values are then read as the definition's own, unchecked), and
 * `constructor` / `prototype` lead there. js-yaml and `JSON.parse` keep them as own keys.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The path (keys and indexes) of the first {@link FORBIDDEN_KEYS} key anywhere in `value`'s
 * plain objects and lists, or `undefined` when there is none. Each object is visited once, so a
 * value given in code may share or repeat objects.
 *
 * @example
 * ```ts
 * forbiddenKeyPath({ name: 'a', settings: JSON.parse('{"__proto__": {}}') }); // ['settings', '__proto__']
 * ```
 */
export function forbiddenKeyPath(value: unknown): readonly string[] | undefined {
  const seen = new Set<object>();
  const stack: { readonly value: unknown; readonly path: readonly string[] }[] = [{ value, path: [] }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const at = next.value;
    const list = Array.isArray(at);
    if ((!list && !isPlainRecord(at)) || seen.has(at as object)) continue;
    seen.add(at as object);
    for (const key of Object.keys(at as object)) {
      if (!list && FORBIDDEN_KEYS.has(key)) return [...next.path, key];
      stack.push({ value: (at as Record<string, unknown>)[key], path: [...next.path, key] });
    }
  }
  return undefined;
}
