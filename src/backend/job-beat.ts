import type { BackendParts } from './backend-parts.js';
import { launcherGone } from './orphan-background.js';
import type { TaskJob } from './task-job.js';

/** As long as a running task record lives: the dead-owner sweep may need the mark until then. */
const MARK_TTL_MS = 24 * 60 * 60_000;

/**
 * Keeps a job's heartbeat while a worker runs it (`<prefix>:beat:<job>`, every third of the
 * stall interval, expiring after one), by which its launcher, or for a background task whose
 * engine is gone the dead-owner sweep, knows the worker lives. The first beat of a
 * background job comes with the mark naming the job that runs the task's launch (written
 * together: the sweep never sees the mark without a beat). A foreground child serves a
 * parent that listens on its approvals channel: once nobody has listened for two beats
 * running (its engine died, nothing reads its events), `orphaned` is called. Resolves once
 * the first beat is written, with the stop.
 *
 * @internal
 */
export async function keepBeating(parts: BackendParts, job: TaskJob, workerId: string, orphaned: () => void): Promise<() => void> {
  const { redis, keys, stallMs } = parts;
  const task = job.spec.task;
  const first = redis.multi().set(keys.beat(job.logId), workerId, 'PX', stallMs);
  if (task?.background && job.queuedAt !== undefined) {
    first.set(keys.taskJob(task.taskId), JSON.stringify({ logId: job.logId, queuedAt: job.queuedAt }), 'PX', MARK_TTL_MS);
  }
  await first.exec().catch(() => undefined);
  let unheard = 0;
  const timer = setInterval(
    () => {
      void redis.set(keys.beat(job.logId), workerId, 'PX', stallMs).catch(() => undefined);
      if (task?.background) return; // it outlives its engine
      void launcherGone(parts, job.logId).then((gone) => {
        unheard = gone ? unheard + 1 : 0;
        if (unheard >= 2) orphaned();
      });
    },
    Math.max(10, Math.floor(stallMs / 3)),
  );
  return () => clearInterval(timer);
}
