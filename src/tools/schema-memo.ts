/**
 * Memoizes a schema factory by a key, so each distinct schema is one object: its validator is
 * compiled once however many tools use it (every engine's `read`, every child's
 * `multitask`). Bounded: past `limit` keys the oldest is dropped.
 *
 * @example
 * ```ts
 * const readInput = schemaMemo((defaultLimit: number) => Type.Object({ ... }));
 * readInput(2000) === readInput(2000); // true
 * ```
 */
export function schemaMemo<K extends string | number, S>(make: (key: K) => S, limit = 256): (key: K) => S {
  const made = new Map<K, S>();
  return (key) => {
    let schema = made.get(key);
    if (schema === undefined) {
      schema = make(key);
      made.set(key, schema);
      if (made.size > limit) made.delete(made.keys().next().value!);
    }
    return schema;
  };
}
