import type { Subscriber } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { RunEnv } from './run-env.js';

/**
 * The `emit` of one tool call's context: adds an event to the run's stream between the
 * call's `ToolCallStart` and `ToolCallEnd`, when the run is streamed.
 *
 * - The run's own lifecycle (`RunStart`, `RunEnd`, `RunCancelled`) is the loop's alone: a
 *   tool that could emit an unwrapped `RunEnd` would break the one-terminal-event rule
 *   every consumer relies on. Such an event (or a value that is no event at all) is dropped
 *   and a `Warning` says so. Children's lifecycle events arrive wrapped, which is fine.
 * - An event emitted while another is being delivered (a consumer reacting to a child's
 *   event by cancelling that child) waits until that delivery returns, so every operator
 *   downstream sees the events in the order they were emitted.
 *
 * @example
 * ```ts
 * const emit = toolEmitter(env, 'task', subscriber);
 * emit(wrappedChildEvent);
 * ```
 */
export function toolEmitter(env: RunEnv, toolName: string, out: Subscriber<AgentEvent>): (event: AgentEvent) => void {
  const { run } = env;
  const queue: AgentEvent[] = [];
  let delivering = false;
  return (event) => {
    if (!env.streaming || out.closed) return;
    const refused = refusedEvent(event);
    queue.push(
      refused === undefined
        ? event
        : { type: 'Warning', runId: run.runId, agentName: run.agentName, code: 'event-refused', message: `The ${toolName} tool emitted ${refused}; it was dropped.` },
    );
    if (delivering) return;
    delivering = true;
    try {
      for (let next = queue.shift(); next && !out.closed; next = queue.shift()) out.next(next);
    } finally {
      delivering = false;
      queue.length = 0;
    }
  };
}

/** Why a tool may not emit this value, or undefined when it may. */
function refusedEvent(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null || typeof (event as AgentEvent).type !== 'string') {
    return 'something that is not an event';
  }
  const type = (event as AgentEvent).type;
  return type === 'RunStart' || type === 'RunEnd' || type === 'RunCancelled' ? `an unwrapped ${type}, which only the run itself emits` : undefined;
}
