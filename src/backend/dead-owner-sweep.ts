import type { BackendParts } from './backend-parts.js';
import { instanceGone } from './instance-gone.js';
import { failStoppedBackground } from './orphan-background.js';
import type { RedisSharedRuns } from './redis-shared-runs.js';
import type { SharedTasks } from './shared-tasks.js';
import { lapseMs } from './worker-lapse.js';

/**
 * Keeps this instance's heartbeat and ends the runs of instances that have none. A started
 * run is owned by the engine that runs it; when that engine's process dies, its record
 * would say `running` for ever and every client attached through another instance would
 * wait for an end that never comes. So each backend beats (every third of a stall interval,
 * a key that expires two stall intervals after the last beat, `lapseMs`, as a worker's: the
 * event loop of an engine busy with many runs lags, and one interval reaped live engines'
 * runs), and each checks the owners of the running runs it knows: for an owner with no beat,
 * one engine (whichever sets the run's reaped marker first) ends the run's log as failed,
 * which ends every attached reader with that error, and records the run as failed. Its
 * running foreground tasks are recorded as failed too, so `whenSettled` on any engine
 * resolves (their children on workers stop by themselves: nobody listens to them); a
 * background task goes on on its worker, which delivers its result and records its end
 * (`settleRecord`); one whose worker has no heartbeat either is recorded failed here
 * (`failStoppedBackground`, which reads BullMQ's lock on its job). Returns the stop.
 *
 * Ours, not BullMQ's: BullMQ watches the workers of its queue, not the app instances that
 * own runs and wait for jobs.
 *
 * @internal
 */
export function sweepDeadOwners(parts: BackendParts, runs: RedisSharedRuns, tasks: SharedTasks, retentionMs: number): () => void {
  const { redis, keys, stallMs, eventLog } = parts;
  const beatKey = keys.instance(runs.instanceId);
  // A beat counts two stall intervals: a live engine whose event loop lags up to about one
  // (it beats every third) is not taken for dead; a killed one is found within two and a third.
  const lapse = lapseMs(stallMs);
  const beat = (): void => void redis.set(beatKey, '1', 'PX', lapse).catch(() => undefined);
  let sweeping = false;
  const dead = new Map<string, boolean>();
  const isDead = async (owner: string): Promise<boolean> => {
    let known = dead.get(owner);
    if (known === undefined) dead.set(owner, (known = await instanceGone(redis, keys, owner)));
    return known;
  };
  const sweep = async (): Promise<void> => {
    dead.clear();
    for (const [owner, runIds] of runs.runningOfOthers()) {
      if (!(await isDead(owner))) continue;
      for (const runId of runIds) {
        if ((await redis.set(keys.reaped(runId), runs.instanceId, 'PX', retentionMs, 'NX')) !== 'OK') continue;
        const message = `the app instance running run ${runId} stopped (no heartbeat for ${lapse} ms): the run cannot go on; its session is kept, start a new run to continue`;
        await eventLog.end(runId, { kind: 'failed', message });
        runs.markFailed(runId, retentionMs);
      }
    }
    for (const [owner, infos] of tasks.runningOfOthers()) {
      if (!(await isDead(owner))) continue;
      for (const { taskId } of infos) await tasks.reap(taskId, stallMs);
    }
    // Nobody watches a dead engine's background tasks' workers any more: one killed too
    // leaves its task running for ever unless noticed here (once: by compare-and-swap).
    for (const [owner, infos] of tasks.runningOfOthers(true)) {
      if (!(await isDead(owner))) continue;
      for (const info of infos) await failStoppedBackground(parts, info, retentionMs);
    }
  };
  // Issued before anything this backend publishes, on the same connection: Redis sees the
  // beat before any record naming this instance.
  beat();
  const timer = setInterval(
    () => {
      beat();
      if (sweeping) return;
      sweeping = true;
      sweep()
        .catch(() => undefined) // Redis is away: the next tick tries again
        .finally(() => (sweeping = false));
    },
    Math.max(10, Math.floor(stallMs / 3)),
  );
  timer.unref();
  return () => {
    clearInterval(timer);
    // A closed backend stops beating; deleting the key tells the others at once.
    void redis.del(beatKey).catch(() => undefined);
  };
}
