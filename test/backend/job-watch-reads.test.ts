/**
 * A launcher watching a job that a live worker took and has not started yet (slow to write
 * its first event, its lock held): it sent an `XLEN` of the job's log every quarter stall
 * interval until the first event came. A lock held says the taker lives: the log is read only
 * when the lock is missing, or once the job was held unstarted past its bound.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { playedTaker, takeJob } from './played-taker.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

const AGENTS = [testAgent('explorer')];

describe.skipIf(!HAS_REDIS)('the watch of a job a live worker holds unstarted', () => {
  const scale = useScaleKits();

  it('reads the lock, not the log, each check until the unstarted bound', async () => {
    // Checks every 100 ms; the unstarted bound is four stall intervals (1600 ms) away.
    const k = await scale.kit(400);
    k.fixture.route({ main: steps(taskReply('explorer', 'take it', 'started')) });
    const probe = await k.backend();
    const { keys } = probe.parts;
    // The worker, played here: it takes the job and holds its lock (alive), writing nothing yet.
    const taker = playedTaker(scale.redis.url, keys.bull);
    const base = new Redis(scale.redis.url);
    await base.ping();
    const monitor = await base.monitor();
    try {
      const engine = await k.engine({ distributeTasks: true }, AGENTS);
      const run = engine.start('go');
      const queue = await probe.parts.queue();
      const logId = await takeJob(taker, queue);
      const reads = { xlen: 0, lock: 0 };
      monitor.on('monitor', (_time: string, args: string[]) => {
        const [command = '', key] = args;
        if (/^xlen$/i.test(command) && key === keys.log(logId)) reads.xlen++;
        if (/^exists$/i.test(command) && key === keys.jobLock(logId)) reads.lock++;
      });
      // Well within the bound: about ten checks.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(reads.lock).toBeGreaterThanOrEqual(5); // it was watched, by its lock
      expect(reads.xlen).toBe(0);
      expect(await queue.getJobState(logId)).toBe('active'); // not given up: its taker lives
      engine.runs.cancel(run.runId);
      await run.result.catch(() => undefined);
    } finally {
      monitor.disconnect();
      base.disconnect();
      await taker.close(true);
    }
  });
});
