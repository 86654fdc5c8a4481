/** What an object or array costs besides its fields (a header and its hidden class's share). */
const OBJECT_OVERHEAD = 32;
/** A number, boolean or null field, and a field's own slot. */
const SCALAR = 8;
/** Nesting deeper than this is charged as one object: events and messages are a few levels deep. */
const MAX_DEPTH = 12;

/**
 * About how many bytes a JSON-like value holds in memory: its strings at two bytes a
 * character, its numbers, and an allowance per object and field. An estimate that grows
 * with what is kept (a 1 MB string counts 2 MB) and walks the value without allocating or
 * serialising it, so a bound can be checked on every write (the run's event log, the memory
 * session store).
 *
 * @example
 * ```ts
 * valueBytes({ role: 'user', content: 'hi' }); // 32 + (8 + 8) + (8 + 4) = 60
 * ```
 */
export function valueBytes(value: unknown, depth = 0): number {
  if (typeof value === 'string') return 2 * value.length;
  if (typeof value !== 'object' || value === null) return SCALAR;
  if (depth >= MAX_DEPTH) return OBJECT_OVERHEAD;
  let bytes = OBJECT_OVERHEAD;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) bytes += valueBytes(value[i], depth + 1);
    return bytes;
  }
  for (const key in value) bytes += SCALAR + valueBytes((value as Record<string, unknown>)[key], depth + 1);
  return bytes;
}
