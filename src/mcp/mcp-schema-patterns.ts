import type { JsonObject, JsonValue } from '../events/json.js';
import type { UnenforcedPattern } from '../tools/json-schema-validator.js';
import { linearRegExpRefusal } from '../validation/linear-regexp.js';

// Keywords whose values are data, not schemas: a `pattern` key inside is no pattern.
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

/**
 * The patterns of an MCP tool's input schema (`pattern` values, `patternProperties` keys)
 * that RE2 cannot run, and so its validator will not enforce, found without compiling the
 * schema: an MCP tool's validator is compiled at its first call (compiling costs about half
 * a second per 64 KiB, and a server may list 256 such schemas), but a run is told at its
 * start what goes unchecked. Walked without recursion: a 64 KiB schema may nest 10,000 deep.
 *
 * @example
 * ```ts
 * unrunnablePatterns({ type: 'object', properties: { name: { type: 'string', pattern: '^(?!tmp)' } } });
 * // [{ pattern: '^(?!tmp)', reason: '... `(?!` ...' }]
 * ```
 */
export function unrunnablePatterns(schema: JsonObject): UnenforcedPattern[] {
  const patterns = new Set<string>();
  const stack: JsonValue[] = [schema];
  for (let value = stack.pop(); value !== undefined; value = stack.pop()) {
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    for (const [key, inner] of Object.entries(value)) {
      if (DATA_KEYWORDS.has(key)) continue;
      if (key === 'pattern' && typeof inner === 'string') patterns.add(inner);
      if (key === 'patternProperties' && inner !== null && typeof inner === 'object' && !Array.isArray(inner)) {
        for (const p of Object.keys(inner)) patterns.add(p);
      }
      stack.push(inner);
    }
  }
  return [...patterns].flatMap((pattern) => {
    const reason = linearRegExpRefusal(pattern);
    return reason === undefined ? [] : [{ pattern, reason }];
  });
}
