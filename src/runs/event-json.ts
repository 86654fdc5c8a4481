import type { AgentEvent } from '../events/agent-event.js';
import { innermost, sameDeclaredValues, shapeable } from './delta-shape.js';

/** The JSON of a delta stream's shape around its innermost text, and its keys at every level. */
interface StreamJson {
  readonly shape: AgentEvent;
  /** `before` and the event's JSON up to the innermost text's; the rest of it and `after`. */
  readonly head: string;
  readonly tail: string;
  /** The keys of each level, outermost first, in their order (JSON follows it). */
  readonly keys: readonly (readonly string[])[];
}

/**
 * Serialises a run's events, each exactly as `JSON.stringify` would, for a reader that
 * sends every one (`GET /runs/:id/events`). Most events are deltas, a child's wrapped in
 * `TaskWrap`s, and `JSON.stringify` of such an event costs about a microsecond, most of it
 * for fields that are the same in every delta of its stream (`delta-shape.ts`). So the JSON
 * around the innermost text is made once per stream (per innermost run: a multitask's
 * children interleave) and each later delta of the same shape, with its keys in the same
 * order, costs the JSON of its text alone. Anything else is serialised whole. The JSON comes
 * between `before` and `after` (the text of the message it goes in: joined to the stream's
 * JSON once, not to each delta's). One per reader: it holds the streams it has seen until
 * their `ReasonEnd`.
 *
 * @example
 * ```ts
 * const toJson = eventJson('{"event":', '}');
 * toJson(event) === `{"event":${JSON.stringify(event)}}`; // true
 * ```
 *
 * @internal
 */
export function eventJson(before = '', after = ''): (event: AgentEvent) => string {
  const streams = new Map<string, StreamJson>();
  return (event) => {
    const inner = innermost(event);
    if (inner.type !== 'ReasonDelta') {
      // The step's message is complete: its streams are done (a later one starts anew).
      if (inner.type === 'ReasonEnd') streams.delete(inner.runId);
      return before + JSON.stringify(event) + after;
    }
    const known = streams.get(inner.runId);
    // The same keys in the same order as the shape's (which has only its declared ones), and their values.
    if (known && sameKeys(known.keys, event) && sameDeclaredValues(known.shape, event)) return known.head + JSON.stringify(inner.text) + known.tail;
    const json = JSON.stringify(event);
    const stream = shapeable(event) ? streamJson(event, json, inner.text, before, after) : undefined;
    if (stream) streams.set(inner.runId, stream);
    else streams.delete(inner.runId);
    return before + json + after;
  };
}

/** How `event`'s JSON splits around its innermost text, or undefined when the text is not its last value. */
function streamJson(event: AgentEvent, json: string, text: string, before: string, after: string): StreamJson | undefined {
  const keys: string[][] = [];
  for (let level: AgentEvent | undefined = event; level; level = level.type === 'TaskWrap' ? level.event : undefined) keys.push(keysOf(level));
  // The innermost object's last key is `text` exactly when its JSON is followed by one brace per level.
  const tail = '}'.repeat(keys.length);
  const end = `"text":${JSON.stringify(text)}${tail}`;
  if (!json.endsWith(end)) return undefined;
  return { shape: event, head: before + json.slice(0, json.length - end.length) + '"text":', tail: tail + after, keys };
}

function keysOf(level: AgentEvent): string[] {
  const keys: string[] = [];
  for (const key in level) keys.push(key);
  return keys;
}

/** True when every level of `event` has exactly `keys`, in their order (written out: this runs for every delta). */
function sameKeys(keys: readonly (readonly string[])[], event: AgentEvent): boolean {
  let level: AgentEvent = event;
  for (let depth = 0; depth < keys.length; depth++) {
    const expected = keys[depth]!;
    let i = 0;
    for (const key in level) if (expected[i++] !== key) return false;
    if (i !== expected.length) return false;
    if (depth + 1 < keys.length) {
      if (level.type !== 'TaskWrap') return false;
      level = level.event;
    }
  }
  return true;
}
