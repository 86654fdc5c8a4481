/**
 * `engine.tasks.cancelAll({ sessionId })` on one engine, for a conversation whose `multitask`
 * runs on another (`SharedTaskTracker.cancelAll`): a child queued there for a pool slot is
 * cancelled by the cancel sent over Redis, and the call returns once it is recorded ended.
 * When that engine is gone (no heartbeat, nobody serves the cancel), the wait is bounded by
 * the lapse and its outcome clear: the queued task is recorded failed, naming the stopped
 * instance, even when the engine was killed just before (a one-interval wait returned with it
 * still `queued`, its last beat alive for a second interval, until a sweep later).
 */
import { describe, expect, it } from 'vitest';
import { lapseMs } from '../../src/backend/worker-lapse.js';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { testAgent } from '../support/agent-turns.js';
import { createGate } from '../support/deferred.js';
import { multitaskReply, steps } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor, type ScaleKit } from './scale-kit.js';

const AGENTS = [testAgent('explorer')];

/** Starts, on `owner`, a multitask of two children behind one slot: the first holds it until `release`, the second waits queued. */
async function queuedBehindOne(k: ScaleKit, owner: HarnessEngine, other: HarnessEngine, release: Promise<void>) {
  k.fixture.route({
    main: steps(multitaskReply([[1, 'explorer', 'first job', 'First'], [2, 'explorer', 'second job', 'Second']])),
    explorer: async () => {
      await release;
      return { text: 'first finished' };
    },
  });
  const run = owner.start('split it in two');
  const result = run.result.catch((e: unknown) => e);
  await waitFor(() => owner.tasks.list(run.sessionId).some((t) => t.state === 'queued'));
  const queued = owner.tasks.list(run.sessionId).find((t) => t.state === 'queued')!;
  const running = owner.tasks.list(run.sessionId).find((t) => t.state === 'running')!;
  await waitFor(() => k.fixture.requestsOf('explorer').length === 1); // the first child is asking the model
  // The other engine knows both, as their owner does.
  await waitFor(() => other.tasks.get(queued.taskId)?.state === 'queued' && other.tasks.get(running.taskId)?.state === 'running');
  return { run, result, queued, running };
}

/** `promise`, or a clear failure if it has not settled in `ms` (far beyond the bound under test). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not return in ${ms} ms: it hangs`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe.skipIf(!HAS_REDIS)('cancelAll of a conversation whose queued task another engine holds', () => {
  const scale = useScaleKits();

  it('returns only once the queued task is recorded cancelled (it never starts)', async () => {
    // Long: the wait must end by the task settling, never by its bound.
    const k = await scale.kit(60_000);
    const release = createGate();
    const owner = await k.engine({ multitaskMaxTasks: 1 }, AGENTS);
    const other = await k.engine({}, AGENTS);
    const { run, result, queued, running } = await queuedBehindOne(k, owner, other, release.promise);

    await within(other.tasks.cancelAll({ sessionId: run.sessionId }), 30_000, 'cancelAll');
    // At once, on the engine that asked: no wait left for the caller.
    expect(other.tasks.get(queued.taskId)?.state).toBe('cancelled');
    expect(other.tasks.get(queued.taskId)?.result).toContain('was cancelled while it waited for a slot; it never started');
    expect(other.tasks.get(running.taskId)?.state).toBe('cancelled');
    expect(owner.tasks.get(queued.taskId)?.state).toBe('cancelled');

    release.open();
    expect(((await result) as { text: string }).text).toContain('it never started');
    expect(owner.tasks.get(queued.taskId)?.state).toBe('cancelled'); // never moved on to running
    expect(k.fixture.requestsOf('explorer')).toHaveLength(1); // the queued child never asked the model
  });

  it('does not hang when that engine was just killed: after the lapse (two stall intervals) the queued task is recorded failed, naming why', { timeout: 60_000 }, async () => {
    const k = await scale.kit(1000);
    const release = createGate();
    const ownerBackend = await k.backend();
    const owner = await k.engine({ multitaskMaxTasks: 1 }, AGENTS, ownerBackend);
    const other = await k.engine({}, AGENTS);
    const { run, queued, running } = await queuedBehindOne(k, owner, other, release.promise);

    // The owner's process is gone as if killed: its connections drop, no beat, no cancel served,
    // no goodbye. Its last beat was just now: its key lives the whole lapse (two stall intervals)
    // from here, as a real last beat's does, so a wait shorter than the lapse still sees it alive
    // and returned with the tasks live; what the caller finds is the wait's outcome.
    const { redis, keys } = ownerBackend.parts;
    await redis.set(keys.instance(ownerBackend.runs.instanceId), '1', 'PX', lapseMs(1000));
    ownerBackend.parts.hub.close();
    redis.disconnect();
    try {
      await within(other.tasks.cancelAll({ sessionId: run.sessionId }), 30_000, 'cancelAll');
      for (const { taskId } of [queued, running]) {
        const info = other.tasks.get(taskId);
        expect(info?.state, taskId).toBe('failed');
        expect(info?.result).toContain(`the app instance running task ${taskId} stopped (no heartbeat for 2000 ms)`);
      }
      // Recorded for every engine: one started now reads the same.
      const late = await k.engine({}, AGENTS);
      expect(late.tasks.get(queued.taskId)?.state).toBe('failed');
      expect(k.fixture.requestsOf('explorer')).toHaveLength(1);
    } finally {
      release.open();
    }
  });
});
