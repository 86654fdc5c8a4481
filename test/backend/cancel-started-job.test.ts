/**
 * A cancel of a remote child whose worker started it, its lock lapsed meanwhile (a live
 * worker on a busy event loop): BullMQ's `remove` takes an active job whose lock is gone, and
 * the launcher took the successful remove for "no worker took it", ending the log "cancelled
 * before a worker took it" in front of the worker's own end: two ends in one log. The
 * launcher now ends the log only while it holds nothing but its open marker.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { steps, taskReply } from '../support/delegation-script.js';
import type { TaskJob } from '../../src/backend/task-job.js';
import { playedTaker, takeJob } from './played-taker.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

const AGENTS = [testAgent('explorer')];

describe.skipIf(!HAS_REDIS)('a cancel of a remote child its worker started', () => {
  const scale = useScaleKits();

  it('leaves the log to the worker: one end, the worker\'s, and none "before a worker took it"', async () => {
    // A long stall: the launcher's job watch does not check within the test.
    const k = await scale.kit(60_000);
    k.fixture.route({ main: steps(taskReply('explorer', 'take it', 'started')) });
    const probe = await k.backend();
    const { redis, keys, eventLog } = probe.parts;
    // The worker, played here: it takes the job (holding its lock) and starts the child.
    const taker = playedTaker(scale.redis.url, keys.bull);
    const monitor = await new Redis(scale.redis.url).monitor();
    try {
      const engine = await k.engine({ distributeTasks: true }, AGENTS);
      const run = engine.start('go');
      const queue = await probe.parts.queue();
      const logId = await takeJob(taker, queue);
      await eventLog.append({ runId: logId, seq: 1, event: { type: 'RunStart', runId: logId, agentName: 'explorer', sessionId: 'ses_child', prompt: 'take it' } });
      // Its lock lapses (its event loop busy), the worker alive: BullMQ's remove now takes the job.
      await redis.del(keys.jobLock(logId));
      // What the launcher writes to the log once it removed the job, seen as Redis runs it.
      let launcherWrote = false;
      monitor.on('monitor', (_time: string, args: string[]) => {
        const [command = '', ...rest] = args;
        if (/^(eval|evalsha|xadd)$/i.test(command) && rest.includes(keys.log(logId)) && (command.toLowerCase() !== 'xadd' || rest.includes('end'))) launcherWrote = true;
      });
      engine.runs.cancel(run.runId);
      await run.result.catch(() => undefined);
      await waitFor(() => launcherWrote);
      expect(await queue.getJobState(logId)).toBe('unknown');
      // The worker obeys the cancel (the launcher announced it): it ends the log itself.
      expect(await redis.exists(keys.cancelled(logId))).toBe(1);
      await eventLog.end(logId, { kind: 'cancelled', reason: 'the task was cancelled' });
      const entries = await redis.xrange(keys.log(logId), '-', '+');
      const ends = entries.filter(([, fields]) => fields[0] === 'end').map(([, fields]) => fields[1]);
      expect(ends).toEqual([JSON.stringify({ kind: 'cancelled', reason: 'the task was cancelled' })]);
    } finally {
      monitor.disconnect();
      await taker.close(true);
    }
  });

  it('still ends the log of a job no worker took', async () => {
    const k = await scale.kit(60_000);
    k.fixture.route({ main: steps(taskReply('explorer', 'wait', 'queued')) });
    const probe = await k.backend();
    const { redis, keys } = probe.parts;
    const queue = await probe.parts.queue();
    const engine = await k.engine({ distributeTasks: true }, AGENTS);
    const run = engine.start('go');
    await waitFor(async () => (await queue.getJobCounts('waiting')).waiting === 1);
    const [job] = await queue.getJobs(['waiting']);
    const logId = (job!.data as TaskJob).logId;
    engine.runs.cancel(run.runId);
    await run.result.catch(() => undefined);
    await waitFor(async () => (await redis.xrevrange(keys.log(logId), '+', '-', 'COUNT', 1))[0]?.[1][0] === 'end');
    const entries = await redis.xrange(keys.log(logId), '-', '+');
    expect(entries.map(([, fields]) => fields)).toEqual([
      ['open', '1'],
      ['end', JSON.stringify({ kind: 'cancelled', reason: 'the task was cancelled before a worker took it' })],
    ]);
  });
});
