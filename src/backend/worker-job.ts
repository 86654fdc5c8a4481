import type { ReActAgent } from '../agent/react-agent.js';
import { errorMessage } from '../errors/error-message.js';
import type { RunEndEvent } from '../events/agent-event.js';
import type { LogEnding } from '../runs/run-types.js';
import type { BackendParts } from './backend-parts.js';
import { backgroundResult, deliverResult } from './background-result.js';
import type { TaskJob } from './task-job.js';
import type { ActiveJob } from './worker-approvals.js';

/** A job a worker runs now: what its approvals, its cancels and the worker's close need. */
export interface RunningJob extends ActiveJob {
  readonly background: boolean;
  /** Stops the child and ends its log with `ending` (once; later calls do nothing). */
  readonly stop: (ending: LogEnding) => void;
}

/**
 * Runs a job's child, rebuilt by the worker from the job's spec, in its task's session until
 * it ends or is stopped: its events go to its log in order; a background task's result goes
 * to its conversation and its record (its engine may be gone); the log's end comes last. The
 * job is in `running` while it runs. Resolves once the log's end is written.
 *
 * @internal
 */
export function runJob(parts: BackendParts, job: TaskJob, agent: ReActAgent, keep: number | undefined, running: Map<string, RunningJob>): Promise<void> {
  const { redis, keys, eventLog } = parts;
  const { logId } = job;
  const task = job.spec.task!;
  return new Promise<void>((resolve) => {
    let seq = 0;
    // Not awaited one by one: a connection keeps its commands in order, so the appends
    // land in seq order while the run goes on; the end waits for all of them.
    let writes: Promise<unknown> = Promise.resolve();
    let done = false;
    let end: RunEndEvent | undefined;
    const startedAt = Date.now();
    const finish = (ending: LogEnding): void => {
      if (done) return;
      done = true;
      running.delete(logId);
      // A background result goes where any engine finds it and into the task's record (its
      // engine may be gone), before the log's end: a live engine, which records the task
      // once it reads that end, writes last.
      const result = task.background ? backgroundResult(job, agent.name, ending, end, startedAt) : undefined;
      const delivered = result && deliverResult(redis, keys, result, job.queuedAt, keep ?? eventLog.retentionMs).catch(() => undefined);
      writes = Promise.all([writes, delivered]).then(() => eventLog.end(logId, ending, keep)).catch(() => undefined);
      void writes.then(() => resolve());
    };
    const subscription = agent.run$(job.prompt, { sessionId: task.taskId, streaming: job.streaming }).subscribe({
      next: (event) => {
        if (event.type === 'RunEnd') end = event;
        writes = Promise.all([writes, eventLog.append({ runId: logId, seq: ++seq, event })]).catch(() => undefined);
      },
      error: (e: unknown) => finish({ kind: 'failed', message: errorMessage(e) }),
      complete: () => finish({ kind: 'complete' }),
    });
    if (done) return;
    running.set(logId, {
      logId,
      taskId: task.taskId,
      rootRunId: task.rootRunId,
      background: task.background,
      stop: (ending) => {
        subscription.unsubscribe();
        finish(ending);
      },
    });
  });
}
