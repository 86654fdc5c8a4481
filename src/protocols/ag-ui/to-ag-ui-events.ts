import { randomUUID } from 'node:crypto';
import type { AGUIEvent } from '@ag-ui/core';
import { Observable, Subscription, type OperatorFunction } from 'rxjs';
import type { AgentEvent } from '../../events/agent-event.js';
import { AgUiMapper } from './ag-ui-mapper.js';
import { runEnded, runFailed, runStarted } from './ag-ui-terminal.js';

/** Options of {@link toAgUiEvents}. */
export interface ToAgUiEventsOptions {
  /** The AG-UI thread: the run's session id, usually. */
  readonly threadId: string;
  /** The AG-UI run id; default the id of the run's first event. */
  readonly runId?: string;
}

/**
 * An RxJS operator from one run's events (`engine.stream(...)`) to AG-UI events
 * (`@ag-ui/core`): `RUN_STARTED` first, then the run's messages, reasoning, tool calls and
 * subagents (see docs/protocols.md for the mapping), then exactly one `RUN_FINISHED` (the
 * run's own `RunEnd`) or `RUN_ERROR` (an abnormal end, or the stream's error, which the
 * operator turns into an event and does not pass on). A subagent's `RunEnd` closes its
 * subagent, never the AG-UI run. Unsubscribing unsubscribes the run (which cancels it).
 *
 * @example
 * ```ts
 * engine.stream('Survey this project', { sessionId })
 *   .pipe(toAgUiEvents({ threadId: sessionId }))
 *   .subscribe((event) => res.write(`data: ${JSON.stringify(event)}\n\n`));
 * ```
 */
export function toAgUiEvents(options: ToAgUiEventsOptions): OperatorFunction<AgentEvent, AGUIEvent> {
  return (source) =>
    new Observable<AGUIEvent>((subscriber) => {
      const mapper = new AgUiMapper();
      let ids = options.runId === undefined ? undefined : { threadId: options.threadId, runId: options.runId };
      const started = (runId: string): { threadId: string; runId: string } => {
        if (ids !== undefined) return ids;
        ids = { threadId: options.threadId, runId };
        subscriber.next(runStarted(ids));
        return ids;
      };
      if (ids !== undefined) subscriber.next(runStarted(ids));
      let ended = false;
      const end = (events: readonly AGUIEvent[]): void => {
        ended = true;
        for (const event of events) subscriber.next(event);
        subscriber.complete();
      };
      // A run that ends synchronously completes the subscriber inside subscribe(): the teardown must exist first.
      const subscription = new Subscription();
      subscription.add(source.subscribe({
        next: (event) => {
          if (ended) return;
          const current = started(event.runId);
          for (const out of mapper.map(event)) subscriber.next(out);
          if (event.type === 'RunEnd') end([...mapper.closeOpen(false), runEnded(current, event)]);
        },
        error: (error: unknown) => {
          if (ended) return;
          started(`run_${randomUUID()}`);
          end([runFailed(error)]);
        },
        complete: () => {
          if (ended) return;
          started(`run_${randomUUID()}`);
          end([runFailed(new Error('the run ended without its RunEnd event'))]);
        },
      }));
      return subscription;
    });
}
