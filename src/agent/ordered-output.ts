import type { Subscriber } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { RunOutput } from './run-output.js';
import type { RunScope } from './run-scope.js';

/** A tool call's output: its events in the order they were produced, then its result. */
export interface OrderedOutput<T> {
  /** Delivers `event` now, or, when called while another event is being delivered, right after it. */
  next(event: AgentEvent): void;
  /** Emits `result` and completes, once everything produced before has been delivered. */
  end(result: T): void;
  /** The `emit` a tool's context gets: checked and copied (see {@link orderedOutput}). */
  readonly emit: (event: AgentEvent) => void;
  /**
   * The `emit` of the harness's own tools (delegation: every wrapped child event): neither
   * checked nor copied, since they build their events themselves.
   */
  readonly trustedEmit: (event: AgentEvent) => void;
}

/**
 * The output of one tool call (its `ToolCallStart`, approval events, what the tool emits,
 * its `ToolCallEnd`), in the order the events were produced, even when a consumer reacts to
 * one of them by causing another: cancelling a child on its wrapped `RunStart` makes the
 * child's `RunCancelled` and the call's `ToolCallEnd` right away, and every operator
 * downstream must still see the `RunStart` first. An event produced during a delivery waits
 * for it; the result waits for the queue.
 *
 * What a tool may emit through its context's `emit`: anything but the run's own lifecycle
 * (`RunStart`, `RunEnd`, `RunCancelled`), which is the loop's alone (a tool that could emit an
 * unwrapped `RunEnd` would break the one-terminal-event rule every consumer relies on); such
 * an event, or a value that is no event, is dropped and a `Warning` says so. Children's
 * lifecycle events arrive wrapped, which is fine. Nothing is emitted when the run is not
 * streamed.
 *
 * The events are delivered to `output`, the run's; `done`, the call's own subscriber, decides
 * when delivery stops (unsubscribed: nothing more) and receives the result.
 *
 * @example
 * ```ts
 * const calls = orderedOutput<string>(scope, 'task', subscriber, output);
 * calls.next(toolCallStart);
 * calls.end('the result text');
 * ```
 */
export function orderedOutput<T>(scope: RunScope, toolName: string, done: Subscriber<T>, output: RunOutput): OrderedOutput<T> {
  const { run } = scope;
  const queue: AgentEvent[] = [];
  let delivering = false;
  let ending: { readonly result: T } | undefined;
  const settle = (): void => {
    if (!ending || queue.length > 0) return;
    const { result } = ending;
    ending = undefined;
    done.next(result);
    done.complete();
  };
  const drain = (): void => {
    if (delivering) return;
    delivering = true;
    for (let next = queue.shift(); next !== undefined && !done.closed; next = queue.shift()) output.next(next);
    delivering = false;
    settle();
  };
  const next = (event: AgentEvent): void => {
    if (done.closed) return;
    if (delivering || queue.length > 0) {
      queue.push(event);
      return drain();
    }
    // Nothing being delivered nor waiting (every event of a streamed child): straight through.
    delivering = true;
    output.next(event);
    delivering = false;
    if (queue.length > 0 || ending) drain();
  };
  return {
    next,
    end: (result) => {
      ending = { result };
      drain();
    },
    emit: (event) => {
      if (!scope.input.streaming) return;
      // Checked and sent as a copy: an event whose `type` is a getter (or a Proxy) could pass
      // the check as a Warning and be delivered as a second RunEnd.
      const copy = ownCopy(event);
      const refused = refusedEvent(copy);
      next(
        refused === undefined
          ? (copy as AgentEvent)
          : { type: 'Warning', runId: run.runId, agentName: run.agentName, code: 'event-refused', message: `The ${toolName} tool emitted ${refused}; it was dropped.` },
      );
    },
    trustedEmit: (event) => {
      if (scope.input.streaming) next(event);
    },
  };
}

/** A plain copy of an object's own enumerable properties (each getter read once), or the value itself. */
function ownCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  try {
    return { ...value };
  } catch {
    return undefined; // a Proxy that throws: no event
  }
}

/** Why a tool may not emit this value, or undefined when it may. */
function refusedEvent(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null || typeof (event as AgentEvent).type !== 'string') {
    return 'something that is not an event';
  }
  const type = (event as AgentEvent).type;
  return type === 'RunStart' || type === 'RunEnd' || type === 'RunCancelled' ? `an unwrapped ${type}, which only the run itself emits` : undefined;
}
