/**
 * How deep JSON from outside (a model's tool arguments, an HTTP body) may nest arrays and
 * objects: far more than any tool's schema or request needs. `JSON.parse` reads any depth,
 * but what comes after walks the value recursively (`JSON.stringify`, validators), and
 * 100,000 nested `[` overflow the stack there.
 */
export const MAX_JSON_DEPTH = 100;

/**
 * The deepest delegation an engine may be given (`maxDepth`), and the `TaskWrap`s the readers
 * of a run's events (the client's `fromRun`, `parseNdjson` by default) accept around one: each
 * level of delegation wraps a descendant's events once more, so a deeper engine's events
 * would be refused by its own client.
 */
export const MAX_DELEGATION_DEPTH = 64;

/**
 * How deep an agent event's JSON may nest when `taskWraps` `TaskWrap`s may wrap it: a tool
 * call's arguments ({@link MAX_JSON_DEPTH} levels at most, as the engine keeps them), a few
 * levels of envelope around them (a stream's message, the event, its `toolCalls`, the call),
 * and one level per `TaskWrap`. Deeper is no event a run sends, and a subscriber that walks it
 * (`JSON.stringify`, a view) would overflow its stack.
 *
 * @example
 * ```ts
 * eventDepthLimit(64); // 168
 * ```
 */
export function eventDepthLimit(taskWraps: number): number {
  return MAX_JSON_DEPTH + 4 + taskWraps;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether the JSON text `raw` nests arrays and objects more than `max` deep: one pass over
 * the text, no recursion (it can be run on text `JSON.parse` accepted, before anything walks
 * the value).
 *
 * @example
 * ```ts
 * nestsDeeper('[[[]]]', 2); // true
 * nestsDeeper('{"a":"[[[["}', 1); // false: brackets in a string do not nest
 * ```
 */
export function nestsDeeper(raw: string, max: number = MAX_JSON_DEPTH): boolean {
  if (raw.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

/**
 * Whether the parsed JSON `value` nests arrays and objects more than `max` deep, as
 * {@link nestsDeeper} counts in text: for a value parsed elsewhere (an MCP server's schema,
 * which its SDK parsed). Walked without recursion, stopping at the first level too deep.
 *
 * @example
 * ```ts
 * valueNestsDeeper({ a: [[]] }, 2); // true
 * ```
 */
export function valueNestsDeeper(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: { readonly value: unknown; readonly depth: number }[] = [{ value, depth: 1 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth > max) return true;
    for (const inner of Object.values(item.value)) stack.push({ value: inner, depth: item.depth + 1 });
  }
  return false;
}
