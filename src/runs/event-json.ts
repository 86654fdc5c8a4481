import type { AgentEvent } from '../events/agent-event.js';
import { innermost, sameShape, shapeable } from './delta-shape.js';

/** The JSON of a delta stream's shape around its innermost text. */
interface StreamJson {
  readonly shape: AgentEvent;
  /** `before` and the event's JSON up to the innermost text's; the rest of it and `after`. */
  readonly head: string;
  readonly tail: string;
  /** `head` and `tail` with the text's quotes: around a text that JSON writes as it is. */
  readonly open: string;
  readonly close: string;
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
    // The shape's keys in its order (`sameShape` checks both, as JSON follows the order) and its values.
    if (known && sameShape(known.shape, event)) {
      const { text } = inner;
      return plainInJson(text) ? known.open + text + known.close : known.head + JSON.stringify(text) + known.tail;
    }
    const json = JSON.stringify(event);
    const stream = shapeable(event) ? streamJson(event, json, inner.text, before, after) : undefined;
    if (stream) streams.set(inner.runId, stream);
    else streams.delete(inner.runId);
    return before + json + after;
  };
}

/** How `event`'s JSON splits around its innermost text, or undefined when the text is not its last value. */
function streamJson(event: AgentEvent, json: string, text: string, before: string, after: string): StreamJson | undefined {
  let levels = 1;
  for (let level = event; level.type === 'TaskWrap'; level = level.event) levels++;
  // The innermost object's last key is `text` exactly when its JSON is followed by one brace per level.
  const tail = '}'.repeat(levels);
  const end = `"text":${JSON.stringify(text)}${tail}`;
  if (!json.endsWith(end)) return undefined;
  const head = before + json.slice(0, json.length - end.length) + '"text":';
  return { shape: event, head, tail: tail + after, open: `${head}"`, close: `"${tail}${after}` };
}

/**
 * True when `JSON.stringify(text)` is `text` between quotes: no quote, backslash, control
 * character or surrogate (a lone one is escaped; a pair, rare in a delta, takes the slow path
 * too). A delta is a few characters, and `JSON.stringify` of one cost about as much as the
 * rest of its frame (docs/performance.md §11, stop 60).
 */
function plainInJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}
