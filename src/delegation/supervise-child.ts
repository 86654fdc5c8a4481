import { takeUntil, type Observable, type Subscription } from 'rxjs';
import type { AgentEvent, RunEndEvent } from '../events/agent-event.js';
import type { RunMetrics } from '../events/run-metrics.js';
import { errorMessage } from '../errors/error-message.js';
import type { TaskState } from './task-info.js';
import { failedTask, type TaskOutcome } from './task-result-format.js';

/** How a child's run ended, as its task settles. */
export interface Ended {
  readonly outcome: TaskOutcome;
  readonly state: Exclude<TaskState, 'running' | 'queued'>;
  readonly metrics: RunMetrics | undefined;
}

/** What {@link superviseChild} tells of a child's run. */
export interface ChildWatch {
  /**
   * Each event of the child, in order. Its first `RunEnd` comes with how the run ended: the
   * task records that at once, before the event reaches anyone, since the run has ended: from
   * then on nothing may cancel it (a second terminal event) nor change its answer.
   */
  readonly event: (event: AgentEvent, ended?: Ended) => void;
  /**
   * The child's stream ended, completed or failed (or cut by `stop$`: its task settled
   * elsewhere, as cancelled). After a `RunEnd`, `ended` is that RunEnd's, already recorded,
   * whatever the stream did next: an error after it does not turn a finished task failed.
   */
  readonly settle: (ended: Ended) => void;
}

/**
 * Subscribes to a child's events (`run$`, of the agent `name`) until `stop$` emits, and
 * turns how it ends into an outcome: the one rule, for children in the parent's stream and
 * in the background alike, that a child's `RunEnd` is its answer.
 */
export function superviseChild(name: string, run$: Observable<AgentEvent>, stop$: Observable<void>, watch: ChildWatch): Subscription {
  let end: Ended | undefined;
  return run$.pipe(takeUntil(stop$)).subscribe({
    next: (event) => {
      if (event.type !== 'RunEnd' || end) return watch.event(event);
      end = endOf(name, event);
      watch.event(event, end);
    },
    error: (e: unknown) => watch.settle(end ?? { outcome: failedTask(`the ${name} task failed: ${errorMessage(e)}`), state: 'failed', metrics: undefined }),
    complete: () => watch.settle(end ?? endOf(name, undefined)),
  });
}

/** The outcome of a child whose stream ended after `end` (none: it ended without one). */
function endOf(name: string, end: RunEndEvent | undefined): Ended {
  if (end && !end.abnormal) return { outcome: { status: 'success', content: end.text }, state: 'done', metrics: end.metrics };
  const why = end?.error ?? 'it ended without a result';
  const partial = end?.text ? `\nIts last text was:\n${end.text}` : '';
  return { outcome: failedTask(`the ${name} task ended abnormally: ${why}${partial}`), state: 'failed', metrics: end?.metrics };
}
