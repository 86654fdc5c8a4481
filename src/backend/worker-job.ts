import type { ReActAgent } from '../agent/react-agent.js';
import { errorIdentity } from '../errors/error-identity.js';
import type { RunEndEvent } from '../events/agent-event.js';
import type { LogEnding } from '../runs/run-types.js';
import type { BackendParts } from './backend-parts.js';
import { backgroundResult, deliverResult } from './background-result.js';
import { appendFirstIfOpen } from './first-event-write.js';
import type { TaskJob } from './task-job.js';

/** A job a worker runs now: what its grants and its cancels by task id need. */
export interface RunningJob {
  readonly logId: string;
  readonly taskId: string;
  readonly rootRunId: string;
  readonly background: boolean;
}

/**
 * Why a worker stops a job it runs: the reason it gives BullMQ's `Worker.cancelJob`, which
 * aborts the processor's signal with it. A cancel ends the log cancelled, the rest failed.
 *
 * @internal
 */
export const STOP_REASON = {
  cancelled: 'the task was cancelled',
  shutDown: 'the worker running it shut down',
  orphaned: 'the engine that delegated it is gone',
} as const;

function endingOf(reason: unknown): LogEnding {
  if (reason === STOP_REASON.cancelled) return { kind: 'cancelled', reason: STOP_REASON.cancelled };
  return { kind: 'failed', message: typeof reason === 'string' ? reason : 'the worker stopped the task' };
}

/**
 * Runs a job's child, rebuilt by the worker from the job's spec, in its task's session until
 * it ends or is stopped: its events go to its log in order, up to its first `RunEnd` (what
 * follows it is not written); a background task's result goes to its conversation and its
 * record (its engine may be gone); the log's end comes last. The
 * job is in `running` while it runs. `signal` is BullMQ's for the job (aborted by
 * `Worker.cancelJob`): it stops the child (model requests aborted, processes killed) and
 * ends the log as its reason says. Resolves once the log's end is written. A log ended before
 * the first event (its launcher gave the job up, `endIfUnstarted`) gets nothing: the child is
 * stopped, and neither its events, nor its result, nor a second end are written.
 *
 * @internal
 */
export function runJob(parts: BackendParts, job: TaskJob, agent: ReActAgent, keep: number | undefined, running: Map<string, RunningJob>, signal: AbortSignal): Promise<void> {
  const { redis, keys, eventLog } = parts;
  const { logId } = job;
  const task = job.spec.task!;
  return new Promise<void>((resolve) => {
    let seq = 0;
    // Not awaited one by one: a connection keeps its commands in order, so the appends
    // land in seq order while the run goes on; the end waits for all of them.
    let writes: Promise<unknown> = Promise.resolve();
    // Whether the log took the first event (it was not ended first): what follows waits for it.
    let opened: Promise<boolean> | undefined;
    let done = false;
    let end: RunEndEvent | undefined;
    // The run's start as its launching engine recorded it: it names the run's result.
    const startedAt = job.taskStartedAt ?? Date.now();
    const finish = (ending: LogEnding): void => {
      if (done) return;
      done = true;
      running.delete(logId);
      signal.removeEventListener('abort', stop);
      // A background result goes where any engine finds it and into the task's record (its
      // engine may be gone), before the log's end: a live engine, which records the task
      // once it reads that end, writes last.
      const result = task.background ? backgroundResult(job, agent.name, ending, end, startedAt) : undefined;
      const written = (opened ?? Promise.resolve(true)).catch(() => true);
      writes = Promise.all([writes, written])
        .then(async ([, open]) => {
          if (!open) return; // ended by its launcher: no result, no second end
          if (result) await deliverResult(redis, keys, result, job.queuedAt, keep ?? eventLog.retentionMs).catch(() => undefined);
          await eventLog.end(logId, ending, keep);
        })
        .catch(() => undefined);
      void writes.then(() => resolve());
    };
    const subscription = agent.run$(job.prompt, { sessionId: task.taskId, streaming: job.streaming }).subscribe({
      next: (event) => {
        // The first RunEnd is the run's answer and its last event (the rule of `superviseChild`):
        // what a broken or hostile agent emits after it is not written, readers would skip it.
        if (end) return;
        if (event.type === 'RunEnd') end = event;
        const entry = { runId: logId, seq: ++seq, event };
        if (!opened) {
          // The first event, only into a log not ended yet (one script: no end lands between).
          opened = appendFirstIfOpen(parts, entry, { taskId: task.taskId, retentionMs: keep });
          opened.then((open) => open || stop(), () => undefined);
          writes = opened.catch(() => undefined);
          return;
        }
        // In order after the first, issued once it is known to have landed.
        const append = opened.then((open) => (open ? eventLog.append(entry) : undefined), () => eventLog.append(entry));
        writes = Promise.all([writes, append]).catch(() => undefined);
      },
      error: (e: unknown) => finish({ kind: 'failed', ...errorIdentity(e) }),
      complete: () => finish({ kind: 'complete' }),
    });
    function stop(): void {
      subscription.unsubscribe();
      finish(endingOf(signal.reason));
    }
    if (done) return;
    running.set(logId, { logId, taskId: task.taskId, rootRunId: task.rootRunId, background: task.background });
    // Aborted before the child started (a cancel while the worker checked the job): stopped at once.
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
  });
}
