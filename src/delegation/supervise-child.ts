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

/**
 * How a child's stream ended, wherever it ran: completed, failed (`message` says why), or
 * stopped by a cancel of its task (`taskId`).
 */
export type ChildEnding = { readonly kind: 'complete' } | { readonly kind: 'failed'; readonly message: string } | { readonly kind: 'cancelled'; readonly taskId: string };

/** What {@link superviseChild} tells of a child's run. */
export interface ChildWatch {
  /**
   * Each event of the child, in order, up to its first `RunEnd`, which comes with how the run
   * ended: the task records that at once, before the event reaches anyone, since the run has
   * ended: from then on nothing may cancel it (a second terminal event) nor change its answer.
   * Nothing the stream emits after that `RunEnd` is delivered (a second `RunEnd`, a cancel).
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
 * turns how it ends into an outcome by {@link childEnded}: the one rule, for children in the
 * parent's stream and in the background alike, that a child's first `RunEnd` is its answer
 * and its last event: whatever its stream emits after it is dropped here, for both.
 */
export function superviseChild(name: string, run$: Observable<AgentEvent>, stop$: Observable<void>, watch: ChildWatch): Subscription {
  let runEnd: RunEndEvent | undefined;
  return run$.pipe(takeUntil(stop$)).subscribe({
    next: (event) => {
      // The run has ended: a launcher elsewhere (a worker, a hostile one) may still send a second
      // RunEnd or a cancel, which would give one child two terminal events and two answers.
      if (runEnd) return;
      if (event.type !== 'RunEnd') return watch.event(event);
      runEnd = event;
      watch.event(event, childEnded(name, event, { kind: 'complete' })); // whatever follows, this is the answer
    },
    error: (e: unknown) => watch.settle(childEnded(name, runEnd, { kind: 'failed', message: errorMessage(e) })),
    complete: () => watch.settle(childEnded(name, runEnd, { kind: 'complete' })),
  });
}

/**
 * The outcome of the child of the agent `name` whose stream ended so (`ending`) after its
 * `RunEnd` `end` (none: it had none). The one rule, in this process and on a worker: a
 * child's `RunEnd` is its answer, whatever ended its stream afterwards (an error, a cancel
 * that came too late); without one, its stream's ending is.
 */
export function childEnded(name: string, end: RunEndEvent | undefined, ending: ChildEnding): Ended {
  if (end && !end.abnormal) return { outcome: { status: 'success', content: end.text }, state: 'done', metrics: end.metrics };
  if (!end && ending.kind === 'cancelled') return { outcome: cancelledTask(name, ending.taskId), state: 'cancelled', metrics: undefined };
  if (!end && ending.kind === 'failed') return { outcome: failedTask(`the ${name} task failed: ${ending.message}`), state: 'failed', metrics: undefined };
  const why = end?.error ?? 'it ended without a result';
  const partial = end?.text ? `\nIts last text was:\n${end.text}` : '';
  return { outcome: failedTask(`the ${name} task ended abnormally: ${why}${partial}`), state: 'failed', metrics: end?.metrics };
}

/** The result of the task `taskId` (of the agent `name`) cancelled before its `RunEnd`. */
export function cancelledTask(name: string, taskId: string): TaskOutcome {
  return failedTask(`the ${name} task ${taskId} was cancelled before it finished.`);
}
