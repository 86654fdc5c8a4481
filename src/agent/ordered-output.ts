import type { Subscriber } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { RunScope } from './run-scope.js';

/** A tool call's output: its events in the order they were produced, then completion. */
export interface OrderedOutput {
  /** Delivers `event` now, or, when called while another event is being delivered, right after it. */
  next(event: AgentEvent): void;
  /** Completes once everything produced before has been delivered. */
  complete(): void;
  /** The `emit` a tool's context gets (see {@link OrderedOutput}). */
  readonly emit: (event: AgentEvent) => void;
}

/**
 * The output of one tool call (its `ToolCallStart`, approval events, what the tool emits,
 * its `ToolCallEnd`), in the order the events were produced, even when a consumer reacts to
 * one of them by causing another: cancelling a child on its wrapped `RunStart` makes the
 * child's `RunCancelled` and the call's `ToolCallEnd` right away, and every operator
 * downstream must still see the `RunStart` first. An event produced during a delivery waits
 * for it; completion waits for the queue.
 *
 * What a tool may emit through its context's `emit`: anything but the run's own lifecycle
 * (`RunStart`, `RunEnd`, `RunCancelled`), which is the loop's alone (a tool that could emit an
 * unwrapped `RunEnd` would break the one-terminal-event rule every consumer relies on); such
 * an event, or a value that is no event, is dropped and a `Warning` says so. Children's
 * lifecycle events arrive wrapped, which is fine. Nothing is emitted when the run is not
 * streamed.
 *
 * The events are delivered to `deliverTo` (default `out`): the run's own output, when `out`'s
 * values reach it unchanged; `out` still decides when delivery stops and receives completion.
 *
 * @example
 * ```ts
 * const output = orderedOutput(scope, 'task', subscriber);
 * output.next(toolCallStart);
 * context.emit = output.emit;
 * ```
 */
export function orderedOutput(
  scope: RunScope,
  toolName: string,
  out: Subscriber<AgentEvent>,
  deliverTo: Pick<Subscriber<AgentEvent>, 'next'> = out,
): OrderedOutput {
  const { run } = scope;
  const queue: AgentEvent[] = [];
  let delivering = false;
  let completing = false;
  const drain = (): void => {
    if (delivering) return;
    delivering = true;
    for (let next = queue.shift(); next !== undefined && !out.closed; next = queue.shift()) deliverTo.next(next);
    delivering = false;
    if (completing && queue.length === 0) out.complete();
  };
  const next = (event: AgentEvent): void => {
    if (out.closed) return;
    if (delivering || queue.length > 0) {
      queue.push(event);
      return drain();
    }
    // Nothing being delivered nor waiting (every event of a streamed child): straight through.
    delivering = true;
    deliverTo.next(event);
    delivering = false;
    if (queue.length > 0 || completing) drain();
  };
  return {
    next,
    complete: () => {
      completing = true;
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
