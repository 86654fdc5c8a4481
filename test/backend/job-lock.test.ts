import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { turnOf } from '../support/delegation-fixture.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { anyJobLock, LOCK_BEATS_PER_STALL } from './heartbeats.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

const AGENTS = [testAgent('explorer')];

/**
 * BullMQ's lock on a job is the worker's heartbeat that launchers and the dead-owner sweep
 * read (`keys.jobLock`): these pin that the key is the one BullMQ really renews, and that a
 * live worker keeps it past many stall intervals.
 */
describe.skipIf(!HAS_REDIS)("BullMQ's job lock as a worker's heartbeat", () => {
  const scale = useScaleKits();

  it('a running task holds the lock under the key the launcher reads; it is gone once the task ended', async () => {
    const k = await scale.kit();
    k.fixture.route({ main: steps(taskReply('explorer', 'wait', 'hang')), explorer: () => ({ hang: true }) });
    await k.worker();
    const engine = await k.engine({ distributeTasks: true }, AGENTS);
    const { redis, keys } = (await k.backend()).parts;
    const queue = await (await k.backend()).parts.queue();
    const run = engine.start('go');
    await waitFor(() => k.fixture.server.requests.some((r) => turnOf(r).agent === 'explorer'));
    const [job] = await queue.getJobs(['active']);
    expect(job?.id).toBeDefined();
    expect(await redis.exists(keys.jobLock(job!.id!))).toBe(1);
    engine.runs.cancel(run.runId);
    await run.result.catch(() => undefined);
    await waitFor(async () => (await redis.exists(keys.jobLock(job!.id!))) === 0);
  });

  it('a task slower than many stall intervals ends with its answer while its worker lives', { timeout: 30_000 }, async () => {
    const k = await scale.kit(1000);
    // Its answer waits for four stall intervals of the worker's heartbeats on the job.
    const beats = await k.heartbeats(anyJobLock((await k.backend()).parts.keys));
    k.fixture.route({ main: steps(taskReply('explorer', 'slow', 'slow')), explorer: () => beats.after(4 * LOCK_BEATS_PER_STALL).then(() => ({ text: 'slow but alive' })) });
    await k.worker();
    const engine = await k.engine({ distributeTasks: true }, AGENTS);
    const { text } = await engine.call('go');
    expect(text).toContain('slow but alive');
    expect(text).not.toContain('the worker running it stopped');
  });
});
