import type { JsonObject, JsonValue } from '../events/json.js';
import type { UnenforcedPattern } from '../tools/json-schema-validator.js';
import { linearRegExpRefusal } from '../validation/linear-regexp.js';
// Data keywords' values are no schemas (a `pattern` key inside is no pattern); a name in a name map is no keyword.
import { DATA_KEYWORDS, NAME_MAPS } from '../validation/schema-walk.js';

/**
 * The most distinct patterns one listing of a server has compiled to find those RE2 cannot
 * run: compiling one costs 0.3 to 2.5 ms, and 26 tools of 500 each held the event loop for
 * 18 s at a run's start (and again after each new listing).
 */
export const MCP_LISTING_MAX_PATTERNS = 500;

/**
 * Judges the schemas of one listing's tools: the patterns of `schema` RE2 cannot run, or
 * undefined when judging them would compile more than `max` distinct patterns in all (the
 * tool is left out; one whose patterns were all judged already costs nothing).
 */
export type PatternJudge = (schema: JsonObject) => UnenforcedPattern[] | undefined;

/**
 * A {@link PatternJudge} for one listing, compiling at most `max` distinct patterns across
 * its tools.
 *
 * @example
 * ```ts
 * const judge = patternJudge();
 * judge({ type: 'object', properties: { a: { type: 'string', pattern: '^(?!tmp)' } } }); // [{ pattern: '^(?!tmp)', reason: '...' }]
 * ```
 */
export function patternJudge(max = MCP_LISTING_MAX_PATTERNS): PatternJudge {
  // Each pattern compiled once per listing, with its reason (undefined: RE2 runs it).
  const judged = new Map<string, string | undefined>();
  return (schema) => {
    const patterns = schemaPatterns(schema);
    let fresh = 0;
    for (const pattern of patterns) if (!judged.has(pattern)) fresh += 1;
    if (judged.size + fresh > max) return undefined;
    const found: UnenforcedPattern[] = [];
    for (const pattern of patterns) {
      if (!judged.has(pattern)) judged.set(pattern, linearRegExpRefusal(pattern));
      const reason = judged.get(pattern);
      if (reason !== undefined) found.push({ pattern, reason });
    }
    return found;
  };
}

/**
 * The patterns of an MCP tool's input schema (`pattern` values, `patternProperties` keys)
 * that RE2 cannot run, and so its validator will not enforce, found without compiling the
 * schema: an MCP tool's validator is compiled at its first call (compiling costs about half
 * a second per 64 KiB, and a server may list 256 such schemas), but a run is told at its
 * start what goes unchecked. A listing's tools are judged by one {@link patternJudge}, which
 * bounds the patterns compiled across them.
 *
 * @example
 * ```ts
 * unrunnablePatterns({ type: 'object', properties: { name: { type: 'string', pattern: '^(?!tmp)' } } });
 * // [{ pattern: '^(?!tmp)', reason: '... `(?!` ...' }]
 * ```
 */
export function unrunnablePatterns(schema: JsonObject): UnenforcedPattern[] {
  return patternJudge(Infinity)(schema) ?? [];
}

/**
 * The distinct patterns of a schema, walked without recursion: a 64 KiB schema may nest 10,000
 * deep. Every object is walked (a `$ref` may name a schema under any key), a schema's data
 * keywords left out; the members of a name map are schemas, whatever their names.
 */
function schemaPatterns(schema: JsonObject): Set<string> {
  const patterns = new Set<string>();
  const stack: Array<[JsonValue, 'schema' | 'names']> = [[schema, 'schema']];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [value, kind] = next;
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const item of value) stack.push([item, 'schema']);
      continue;
    }
    for (const [key, inner] of Object.entries(value)) {
      if (kind === 'names') {
        stack.push([inner, 'schema']);
        continue;
      }
      if (DATA_KEYWORDS.has(key)) continue;
      if (key === 'pattern' && typeof inner === 'string') patterns.add(inner);
      const names = NAME_MAPS.has(key) && inner !== null && typeof inner === 'object' && !Array.isArray(inner);
      if (names && key === 'patternProperties') for (const p of Object.keys(inner)) patterns.add(p);
      stack.push([inner, names ? 'names' : 'schema']);
    }
  }
  return patterns;
}
