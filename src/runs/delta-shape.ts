import type { AgentEvent, ReasonDeltaEvent, TaskWrapEvent } from '../events/agent-event.js';

/*
 * Why delta shapes: a started run's log keeps every event for replay, and most of them are
 * `ReasonDelta`s (a child's arrive wrapped in one or more `TaskWrap`s). Kept as they come,
 * each is a `TaskWrap`, a `ReasonDelta` and a string that survive the young generation, so
 * the garbage collector copies them and then marks them for as long as the run is retained:
 * that was much of what `start()` cost over `stream()`. Consecutive deltas of one stream
 * differ only in their `text`; a log keeps the first as the stream's shape and only the text
 * of each one after it (`event-store.ts`), and {@link withText} rebuilds an equal event.
 */

/** The innermost event of a chain of `TaskWrap`s: the delta itself, or the event unwrapped. */
export function innermost(event: AgentEvent): AgentEvent {
  let inner = event;
  while (inner.type === 'TaskWrap') inner = inner.event;
  return inner;
}

/**
 * True when a stream's shape may be taken from `event`: at every level it has exactly the
 * fields its type declares, in the order rxharness builds them, none of them undefined.
 * Anything else (a field this code does not know, another order) is kept whole, so a replay
 * never loses a field or moves one.
 */
export function shapeable(event: AgentEvent): boolean {
  if (event.type === 'TaskWrap') return keysInOrder(event, WRAP_ORDER) && wrapDefined(event) && shapeable(event.event);
  return event.type === 'ReasonDelta' && typeof event.text === 'string' && keysInOrder(event, DELTA_ORDER) && deltaDefined(event);
}

/**
 * True when `event` equals `shape` (a {@link shapeable} delta) in everything but the innermost
 * `text`: the same declared fields, in the same order, with the same values at every level,
 * and no other field.
 * Written out field by field: this runs for every delta a started run logs.
 */
export function sameShape(shape: AgentEvent, event: AgentEvent): boolean {
  if (shape.type === 'TaskWrap') {
    if (event.type !== 'TaskWrap') return false;
    const same =
      shape.runId === event.runId &&
      shape.agentName === event.agentName &&
      shape.parentRunId === event.parentRunId &&
      shape.taskId === event.taskId &&
      shape.taskIndex === event.taskIndex &&
      shape.taskAgentName === event.taskAgentName &&
      shape.taskDescription === event.taskDescription &&
      shape.multitask === event.multitask;
    return same && keysInOrder(event, WRAP_ORDER) && sameShape(shape.event, event.event);
  }
  if (shape.type !== 'ReasonDelta' || event.type !== 'ReasonDelta') return false;
  const same = shape.runId === event.runId && shape.agentName === event.agentName && shape.step === event.step && shape.kind === event.kind;
  return same && typeof event.text === 'string' && keysInOrder(event, DELTA_ORDER);
}

/** A `TaskWrap`'s fields in the order rxharness builds them, each compared in `sameShape` (`event` by recursion). */
const WRAP_KEYS = ['type', 'runId', 'agentName', 'parentRunId', 'taskId', 'taskIndex', 'taskAgentName', 'taskDescription', 'multitask', 'event'] as const;
/** A `ReasonDelta`'s fields in the order rxharness builds them, each compared in `sameShape` but `text`. */
const DELTA_KEYS = ['type', 'runId', 'agentName', 'step', 'kind', 'text'] as const;
/** `true` only when `A` and `B` are the same set of keys. */
type SameKeys<A, B> = [Exclude<A, B>, Exclude<B, A>] extends [never, never] ? true : never;
// Compile-time guards: a field added to either event type fails here, until `sameShape`
// compares it too (else two deltas differing in it would share a shape and a replay lose it).
const wrapKeysComplete: SameKeys<keyof TaskWrapEvent, (typeof WRAP_KEYS)[number]> = true;
const deltaKeysComplete: SameKeys<keyof ReasonDeltaEvent, (typeof DELTA_KEYS)[number]> = true;
const WRAP_ORDER: readonly string[] = wrapKeysComplete && WRAP_KEYS;
const DELTA_ORDER: readonly string[] = deltaKeysComplete && DELTA_KEYS;

/**
 * True when `event`'s keys are exactly `keys`, in that order (the order rxharness builds them
 * in). A replay rebuilds a delta from its stream's shape, so it has the shape's key order: only
 * deltas whose keys come in that one order share a shape, and a replayed delta's JSON is then
 * the live one's byte for byte. Any other order is kept whole.
 */
function keysInOrder(event: AgentEvent, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in event) if (key !== keys[i++]) return false;
  return i === keys.length;
}

function wrapDefined(e: TaskWrapEvent): boolean {
  const fields = [e.runId, e.agentName, e.parentRunId, e.taskId, e.taskIndex, e.taskAgentName, e.taskDescription, e.multitask, e.event];
  return !fields.includes(undefined as never);
}

function deltaDefined(e: ReasonDeltaEvent): boolean {
  return e.runId !== undefined && e.agentName !== undefined && e.step !== undefined && e.kind !== undefined;
}

/** A copy of `shape` (a delta, possibly wrapped) with `text` as its innermost text. */
export function withText(shape: AgentEvent, text: string): AgentEvent {
  return shape.type === 'TaskWrap' ? { ...shape, event: withText(shape.event, text) } : ({ ...shape, text } as AgentEvent);
}
