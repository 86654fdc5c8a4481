import type { AgentEvent, AgentEventType } from '../events/agent-event.js';
import { isAgentEvent } from '../events/guards.js';
import { isPlainObject, storedObject } from './stored-object.js';

type Kind = 'string' | 'number' | 'boolean' | 'object' | 'calls' | 'metrics';

/**
 * The fields each event type must carry, beyond `type`, `runId` and `agentName`: those the
 * engine, the adapters and the task that relays a child read without looking (a child's
 * `RunEnd` without `metrics` would throw in the parent's bookkeeping). A type missing here
 * (added later) is checked by `isAgentEvent` alone.
 */
const FIELDS: Partial<Record<AgentEventType, Readonly<Record<string, Kind>>>> = {
  RunStart: { sessionId: 'string', prompt: 'string' },
  ContextSize: { messageCount: 'number', tokenCount: 'number' },
  ReasonStart: { step: 'number' },
  ReasonDelta: { step: 'number', kind: 'string', text: 'string' },
  ReasonEnd: { step: 'number', text: 'string', toolCalls: 'calls', durationMs: 'number' },
  ActionStart: { step: 'number', toolCalls: 'calls' },
  ToolCallStart: { step: 'number', callId: 'string', toolName: 'string' },
  ToolCallEnd: { step: 'number', callId: 'string', toolName: 'string', text: 'string', durationMs: 'number' },
  ActionEnd: { step: 'number' },
  Plan: { todos: 'object' },
  HITLPending: { callId: 'string', toolName: 'string', reason: 'string' },
  HITLDecided: { callId: 'string', toolName: 'string', decision: 'string' },
  RunEnd: { text: 'string', abnormal: 'boolean', metrics: 'metrics', steps: 'number' },
  RunCancelled: { reason: 'string' },
  Warning: { code: 'string', message: 'string' },
  Budget: { step: 'number', limit: 'number', used: 'number', remaining: 'number' },
  TaskWrap: { parentRunId: 'string', taskId: 'string', taskIndex: 'number', taskAgentName: 'string', taskDescription: 'string', multitask: 'boolean' },
};

const METRICS = ['promptTokens', 'completionTokens', 'totalTokens', 'durationMs', 'tasks'];

/**
 * An event read back from Redis (its JSON text), or undefined when it is not one: every
 * level of `TaskWrap` nesting must be a known event with the fields its type promises.
 * Whatever is stored there is not trusted (anyone with access to the Redis can write it), and
 * an event of the wrong shape would throw in whoever consumes it.
 *
 * @example
 * ```ts
 * storedEvent('{"type":"Warning","runId":"r","agentName":"main","code":"x","message":"y"}'); // the event
 * storedEvent('null'); // undefined
 * ```
 */
export function storedEvent(text: string | undefined): AgentEvent | undefined {
  const value = text === undefined ? undefined : storedObject(text);
  if (!isAgentEvent(value)) return undefined;
  // A loop, not recursion: a deeply nested TaskWrap must not overflow the stack.
  for (let current: AgentEvent = value; ; current = current.event) {
    const fields = FIELDS[current.type] ?? {};
    const fields$ = current as unknown as Record<string, unknown>;
    for (const [name, kind] of Object.entries(fields)) if (!fits(fields$[name], kind)) return undefined;
    if (current.type !== 'TaskWrap') return value;
  }
}

function fits(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'object':
      return typeof value === 'object' && value !== null;
    case 'calls':
      return Array.isArray(value) && value.every((c) => isPlainObject(c) && typeof c['callId'] === 'string' && typeof c['name'] === 'string');
    case 'metrics':
      return isPlainObject(value) && METRICS.every((name) => fits(value[name], 'number'));
    default:
      return typeof value === kind;
  }
}
