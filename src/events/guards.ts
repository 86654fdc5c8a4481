import type { AgentEvent, AgentEventType, EventOfType, RunEndEvent, TaskWrapEvent } from './agent-event.js';
import { fits, type Kind } from './field-kinds.js';

const EVENT_TYPES: ReadonlySet<string> = new Set<AgentEventType>([
  'RunStart', 'ContextSize', 'ReasonStart', 'ReasonDelta', 'ReasonEnd', 'ActionStart',
  'ToolCallStart', 'ToolCallEnd', 'ActionEnd', 'Plan', 'HITLPending', 'HITLDecided',
  'RunEnd', 'RunCancelled', 'Warning', 'Budget', 'Compaction', 'TaskQueued', 'TaskWrap',
]);

/**
 * Whether an event is a child's event carried in its parent's stream.
 *
 * @example
 * ```ts
 * if (isTaskWrap(e)) console.log(`[${e.taskAgentName}#${e.taskIndex}]`, e.event.type);
 * ```
 */
export function isTaskWrap(event: AgentEvent): event is TaskWrapEvent {
  return event.type === 'TaskWrap';
}

/**
 * Whether an event has the given `type`; narrows it to that event's interface. A `TaskWrap`
 * only matches `'TaskWrap'`: unwrap it first to look at the child's event.
 *
 * @example
 * ```ts
 * if (isEventType(e, 'ReasonDelta')) process.stdout.write(e.text);
 * ```
 */
export function isEventType<T extends AgentEventType>(event: AgentEvent, type: T): event is EventOfType<T> {
  return event.type === type;
}

/**
 * Whether an event is an unwrapped `RunEnd`. In a parent's stream that is the parent's own
 * terminal event: a child's `RunEnd` arrives inside a `TaskWrap` and never matches.
 *
 * @example
 * ```ts
 * engine.stream('hi').subscribe((e) => { if (isRunEnd(e)) console.log(e.text); });
 * ```
 */
export function isRunEnd(event: AgentEvent): event is RunEndEvent {
  return event.type === 'RunEnd';
}

/**
 * Whether an unknown value looks like an event (an object with a known `type`, a string
 * `runId` and `agentName`; a `TaskWrap` must carry an event too). Useful on data read back
 * from NDJSON or the network.
 *
 * @example
 * ```ts
 * const value: unknown = JSON.parse(line);
 * if (isAgentEvent(value)) handle(value);
 * ```
 */
export function isAgentEvent(value: unknown): value is AgentEvent {
  // A loop, not recursion: a value nested 50,000 TaskWraps deep must not overflow the stack.
  for (let current = value; ; ) {
    if (typeof current !== 'object' || current === null) return false;
    const v = current as Record<string, unknown>;
    if (typeof v.type !== 'string' || !EVENT_TYPES.has(v.type)) return false;
    if (typeof v.runId !== 'string' || typeof v.agentName !== 'string') return false;
    if (v.type !== 'TaskWrap') return true;
    current = v.event;
  }
}

/**
 * The fields of each event type beyond `type`, `runId` and `agentName`: what the adapters,
 * the task tree and the terminal lines read without looking (a `RunEnd` without `metrics`
 * threw in the tree). Every type is listed, so a new type does not compile until it is added.
 */
const FIELDS: Readonly<Record<AgentEventType, Readonly<Record<string, Kind>>>> = {
  RunStart: { sessionId: 'string', prompt: 'string' },
  ContextSize: { messageCount: 'number', tokenCount: 'number' },
  ReasonStart: { step: 'number' },
  ReasonDelta: { step: 'number', kind: 'string', text: 'string' },
  ReasonEnd: { step: 'number', text: 'string', toolCalls: 'calls', durationMs: 'number', finishReason: 'string?', usage: 'usage?' },
  ActionStart: { step: 'number', toolCalls: 'calls' },
  ToolCallStart: { step: 'number', callId: 'string', toolName: 'string', args: 'json' },
  ToolCallEnd: { step: 'number', callId: 'string', toolName: 'string', text: 'string', error: 'string?', durationMs: 'number' },
  ActionEnd: { step: 'number' },
  Plan: { todos: 'todos' },
  HITLPending: { approvalId: 'string', callId: 'string', toolName: 'string', args: 'json', reason: 'string' },
  HITLDecided: { approvalId: 'string', callId: 'string', toolName: 'string', decision: 'string', comment: 'string?', timedOut: 'boolean?' },
  RunEnd: { text: 'string', abnormal: 'boolean', error: 'string?', metrics: 'metrics', steps: 'number' },
  RunCancelled: { reason: 'string' },
  Warning: { code: 'string', message: 'string' },
  Budget: { step: 'number', limit: 'number', used: 'number', remaining: 'number' },
  Compaction: {
    sessionId: 'string', reason: 'string', contextWindow: 'number', tokensBefore: 'number', tokensAfter: 'number',
    prunedToolResults: 'number', summarisedMessages: 'number', summaryError: 'string?', archived: 'boolean',
  },
  TaskQueued: { parentRunId: 'string', taskId: 'string', taskIndex: 'number', taskAgentName: 'string', taskDescription: 'string' },
  TaskWrap: { parentRunId: 'string', taskId: 'string', taskIndex: 'number', taskAgentName: 'string', taskDescription: 'string', multitask: 'boolean' },
};
// Entries made once: the check runs for every event a page or a terminal draws.
const FIELD_LISTS = new Map(Object.entries(FIELDS).map(([type, fields]) => [type, Object.entries(fields)]));

/**
 * Whether an unknown value is an event with every field its type promises, at every level of
 * `TaskWrap` nesting: {@link isAgentEvent}, plus each field's kind (a `ReasonDelta`'s `text`
 * a string, a `RunEnd`'s `metrics` five numbers, an optional `error` a string when present).
 * What a client checks before handing an event read from the network to code that reads
 * those fields without looking (`fromRun` refuses the rest; `reduceTree` skips them): the
 * same check for a client that reads the NDJSON or SSE stream itself.
 *
 * @example
 * ```ts
 * isWellFormedEvent({ type: 'RunEnd', runId: 'r', agentName: 'main' }); // false: no text, metrics...
 *
 * // the data of one message of GET /api/runs/:id/events, read by hand: `{ runId, seq, event }`
 * const { event } = JSON.parse(data) as { event: unknown };
 * if (isWellFormedEvent(event)) state = reduceTree(state, event, Date.now());
 * ```
 */
export function isWellFormedEvent(value: unknown): value is AgentEvent {
  if (!isAgentEvent(value)) return false;
  // A loop, not recursion, for the same reason as isAgentEvent's.
  for (let current: AgentEvent = value; ; current = current.event) {
    const record = current as unknown as Record<string, unknown>;
    for (const [name, kind] of FIELD_LISTS.get(current.type)!) if (!fits(record[name], kind)) return false;
    if (current.type !== 'TaskWrap') return true;
  }
}
