import type { AgentEvent, AgentEventType, EventOfType, RunEndEvent, TaskWrapEvent } from './agent-event.js';

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
