import pLimit, { type LimitFunction } from 'p-limit';
import type { Observable } from 'rxjs';
import { trustedEmit } from '../agent/trusted-emit.js';
import type { AgentEvent } from '../events/agent-event.js';
import { EMPTY_METRICS } from '../events/run-metrics.js';
import { inSlot$ } from '../model/in-slot.js';
import type { PooledTask, TaskPool } from './delegation-types.js';
import { failedTask, type TaskOutcome } from './task-result-format.js';

/**
 * A {@link TaskPool} of `size` slots (0: no limit) over p-limit.
 *
 * The child runs in a slot through {@link inSlot$}, which frees the slot however the child
 * ends.
 *
 * A task that has to wait (every slot taken) is registered as `queued` with the tracker and
 * announced with a `TaskQueued` event; `engine.cancelTask` takes it out of the queue before it
 * starts.
 *
 * @example
 * ```ts
 * const pool = createTaskPool(2);
 * const outcome$ = pool.run(task, runChild$(child)); // waits for one of 2 slots
 * ```
 */
export function createTaskPool(size: number): TaskPool {
  const limit = pLimit(size > 0 ? size : Number.POSITIVE_INFINITY);
  return { run: (child, job$) => pooled$(limit, child, job$), clear: () => limit.clearQueue() };
}

function pooled$(limit: LimitFunction, c: PooledTask, job$: Observable<TaskOutcome>): Observable<TaskOutcome> {
  return inSlot$(limit, job$, {
    onQueued: (leave) => announceQueued(c, () => leave([settleUnstarted(c)])),
    onDropped: () => c.tracker.finish(c.taskId, 'cancelled', failedTask('the parent run was cancelled.').content),
  });
}

/** Registers the task as queued and tells a streaming parent, whose UI shows it waiting. */
function announceQueued(c: PooledTask, cancel: () => void): void {
  const { parent } = c;
  c.tracker.queue(
    { taskId: c.taskId, agentName: c.agentName, description: c.description, sessionId: parent.rootSessionId, parentRunId: parent.runId, background: false },
    cancel,
  );
  if (!parent.streaming) return;
  trustedEmit(parent)({
    type: 'TaskQueued',
    runId: parent.runId,
    agentName: parent.agentName,
    parentRunId: parent.runId,
    taskId: c.taskId,
    taskIndex: c.index,
    taskAgentName: c.agentName,
    taskDescription: c.description,
  });
}

/** A queued task cancelled by id: its result says so, and a streaming parent sees it close (it never ran). */
function settleUnstarted(c: PooledTask): TaskOutcome {
  const { parent } = c;
  const outcome = failedTask(`the ${c.agentName} task ${c.taskId} was cancelled while it waited for a slot; it never started.`);
  parent.addMetrics({ ...EMPTY_METRICS, tasks: 1 });
  c.tracker.finish(c.taskId, 'cancelled', outcome.content);
  if (parent.streaming) {
    const runId = `run_unstarted_${c.taskId}`;
    const agentName = c.agentName;
    const wrap = (event: AgentEvent): AgentEvent => ({
      type: 'TaskWrap', runId, agentName, parentRunId: parent.runId, taskId: c.taskId, taskIndex: c.index,
      taskAgentName: agentName, taskDescription: c.description, multitask: c.multitask, event,
    });
    const emit = trustedEmit(parent);
    emit(wrap({ type: 'RunStart', runId, agentName, sessionId: c.taskId, prompt: c.prompt }));
    emit(wrap({ type: 'RunCancelled', runId, agentName, reason: `the task ${c.taskId} was cancelled before it started` }));
  }
  return outcome;
}
