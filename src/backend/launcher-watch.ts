import type { BackendParts } from './backend-parts.js';
import { launcherGone } from './orphan-background.js';

/**
 * Watches, on the worker running a foreground job, whether its launcher still listens on the
 * job's approvals channel (it does from before the job is queued until it stops following
 * the task); once nobody has listened for two looks running (its engine died, nothing reads
 * the child's events), `orphaned` is called. Looks every third of the stall interval;
 * returns the stop.
 *
 * Ours, not BullMQ's: BullMQ watches workers for their queue (the job's lock), never who
 * waits for a job's result, so it would let a child whose parent is gone run to its end.
 * A background job is not watched: it outlives its engine by design.
 *
 * @internal
 */
export function watchLauncher(parts: BackendParts, logId: string, orphaned: () => void): () => void {
  let unheard = 0;
  const timer = setInterval(
    () => {
      void launcherGone(parts, logId).then((gone) => {
        unheard = gone ? unheard + 1 : 0;
        if (unheard >= 2) orphaned();
      });
    },
    Math.max(10, Math.floor(parts.stallMs / 3)),
  );
  return () => clearInterval(timer);
}
