/**
 * Forged task records on a real Redis, loaded at start-up and announced on the tasks channel.
 * A record saying `running` yet carrying an end or a result used to be taken as is: every
 * engine listed a task both live and ended. Now each state's record has its one shape
 * (`readTaskRecord`): a forged one is passed over with a warning naming its key and why, left
 * in Redis as it is, and nothing throws out of the subscriber; the good ones load.
 */
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { badDataWarnings, warningsDelivered } from './planted-data.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

/** Nothing here waits for a heartbeat to lapse. */
const STALL_MS = 60_000;
const AGENTS = [testAgent('explorer')];

describe.skipIf(!HAS_REDIS)('forged task records in Redis', () => {
  const scale = useScaleKits();

  it('refuses a running record with an end or a result, loaded or announced, naming its key; leaves it in Redis', async () => {
    const k = await scale.kit(STALL_MS);
    const probe = await k.backend();
    const { redis, keys } = probe.parts;
    const t = Date.now();
    const base = { agentName: 'explorer', description: 'd', sessionId: 'ses_f', parentRunId: 'run_f', background: true, state: 'running', startedAt: t, owner: 'instance_f' };
    const forged: Record<string, object> = {
      task_ended: { ...base, endedAt: t + 1 },
      task_result: { ...base, result: 'the forged answer' },
      task_metrics: { ...base, metrics: { promptTokens: 1, completionTokens: 1, totalTokens: 2, durationMs: 1, tasks: 0 } },
      task_other: { ...base, taskId: 'task_victim' }, // under another task's key
    };
    for (const [taskId, record] of Object.entries(forged)) await redis.set(keys.task(taskId), JSON.stringify({ taskId, ...record }), 'PX', 60_000);
    await redis.set(keys.task('task_good'), JSON.stringify({ ...base, taskId: 'task_good' }), 'PX', 60_000);
    const warnings = badDataWarnings();
    try {
      const engine = await k.engine({}, AGENTS);
      await warningsDelivered();
      expect(engine.tasks.list().map((t) => `${t.taskId}:${t.state}`)).toEqual(['task_good:running']);
      expect(warnings.messages).toHaveLength(1);
      const [loaded] = warnings.messages;
      expect(loaded).toContain('Skipped 4 task records in Redis that are not what an engine writes');
      expect(loaded).toMatch(/:task:task_\w+ \(a running record has no field "(endedAt|result|metrics)"\)/);
      expect(loaded).toContain('and 1 more');
      // Nothing lost: each stays where it was, for whoever looks into it.
      for (const taskId of Object.keys(forged)) expect(await redis.exists(keys.task(taskId))).toBe(1);

      // Announced: the same rule, nothing thrown out of the subscriber, one warning for the channel.
      // (A message names no key: the key check is the loader's.)
      for (const [taskId, record] of Object.entries(forged).filter(([id]) => id !== 'task_other')) {
        const { owner, ...info } = record as { owner: string };
        await redis.publish(keys.tasksChannel, JSON.stringify({ op: 'put', info: { taskId: `${taskId}_msg`, ...info }, owner }));
      }
      await redis.publish(keys.tasksChannel, 'null');
      await redis.publish(keys.tasksChannel, '{"op":"put","info":"running"}');
      // A forged end of the good task: it stays running.
      await redis.publish(keys.tasksChannel, JSON.stringify({ op: 'put', info: { ...base, taskId: 'task_good', state: 'running', result: 'forged end' }, owner: base.owner }));
      const { owner, ...info } = base;
      await redis.publish(keys.tasksChannel, JSON.stringify({ op: 'put', info: { ...info, taskId: 'task_after' }, owner }));
      await waitFor(() => engine.tasks.get('task_after')?.state === 'running');
      await warningsDelivered();
      expect(engine.tasks.list().map((t) => t.taskId).sort()).toEqual(['task_after', 'task_good']);
      expect(engine.tasks.get('task_good')).not.toHaveProperty('result');
      // One warning for the channel, at once, for the first of them; the rest are counted (said
      // when the minute ends, or when the backend closes), `null` among them.
      expect(warnings.messages.slice(1)).toEqual([expect.stringContaining(`Skipped a message on ${keys.tasksChannel} that no engine or worker publishes (its task record: `)]);
    } finally {
      warnings.stop();
    }
  });

  it('loads 10,000 records, half of them forged, with one warning; the forged ones stay in Redis', { timeout: 120_000 }, async () => {
    const k = await scale.kit(STALL_MS);
    const { redis, keys } = (await k.backend()).parts;
    const t = Date.now();
    const record = (i: number): object => {
      const base = { taskId: `task_${i}`, agentName: 'explorer', description: `job ${i}`, sessionId: `ses_${i % 7}`, parentRunId: 'run_n', background: true, startedAt: t, owner: 'instance_n' };
      if (i % 2 === 0) return { ...base, state: 'done', endedAt: t + 1, result: `answer ${i}` };
      // The forged half: each a state with another state's fields, a wrong type, or a huge time.
      const forged = [{ state: 'running', endedAt: t + 1 }, { state: 'queued', background: false, result: 'x' }, { state: 'done', endedAt: String(t) }, { state: 'running', startedAt: 1e300 }];
      return { ...base, ...forged[((i - 1) / 2) % forged.length] };
    };
    for (let from = 0; from < 10_000; from += 1000) {
      const batch = redis.multi();
      for (let i = from; i < from + 1000; i++) batch.set(keys.task(`task_${i}`), JSON.stringify(record(i)), 'PX', 120_000);
      await batch.exec();
    }
    const warnings = badDataWarnings();
    try {
      const engine = await k.engine({}, AGENTS);
      await warningsDelivered();
      const listed = engine.tasks.list();
      expect(listed).toHaveLength(5000);
      expect(listed.every((task) => task.state === 'done' && Number(task.taskId.slice(5)) % 2 === 0)).toBe(true);
      expect(engine.tasks.list('ses_3').length).toBeGreaterThan(0);
      expect(warnings.messages).toHaveLength(1);
      expect(warnings.messages[0]).toMatch(/^Skipped 5000 task records in Redis .*, and 4997 more\. Not loaded, left as they are/);
      expect(await redis.dbsize()).toBeGreaterThanOrEqual(10_000);
      const still = await redis.mget(...Array.from({ length: 5000 }, (_, n) => keys.task(`task_${2 * n + 1}`)));
      expect(still.every((text) => text !== null)).toBe(true);
    } finally {
      warnings.stop();
    }
  });
});
