/**
 * Messages on the tasks channel (`<prefix>:tasks-events`) that anyone with access to the
 * Redis can publish:
 *
 * - a `cancel` cancelled the task on the engine running it, whoever sent it. Now that engine
 *   cancels only a launch Redis marks cancelled (`<prefix>:task-cancelled:<task>`, naming the
 *   launch's start, written with a real cancel's message);
 * - bad messages were said in two ways: not JSON, once a minute by the channel hub; a put of
 *   a record no engine writes, once for the life of the process, then never again; an unknown
 *   `op` taken as a cancel. Now every one is said as the results channel's are
 *   (`BadMessageWarnings`: the first at once, then a count at most once a minute, and what is
 *   still counted when the backend closes).
 */
import { Redis } from 'ioredis';
import { filter, firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { badDataWarnings, warningsDelivered } from './planted-data.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits, waitFor } from './scale-kit.js';

const STALL_MS = 60_000;

describe.skipIf(!HAS_REDIS)('forged and bad messages on the tasks channel', () => {
  const scale = useScaleKits();

  it('a cancel Redis does not mark cancels nothing; a real one from another engine does', async () => {
    const k = await scale.kit(STALL_MS);
    k.fixture.route({ main: steps(taskReply('explorer', 'wait forever', 'hang'), { text: 'done' }), explorer: () => ({ hang: true }) });
    const ownerBackend = await k.backend();
    const owner = await k.engine({}, [testAgent('explorer')], ownerBackend);
    const other = await k.engine({}, [testAgent('explorer')]);
    const attacker = new Redis(scale.redis.url);
    try {
      const run = owner.start('go');
      const { taskId } = await firstValueFrom(owner.tasks.changes.pipe(filter((t) => t.state === 'running')));
      await waitFor(() => other.tasks.get(taskId)?.state === 'running');
      await attacker.publish(ownerBackend.parts.keys.tasksChannel, JSON.stringify({ op: 'cancel', taskId }));
      await caughtUp(ownerBackend);
      await caughtUp(ownerBackend);
      expect(owner.tasks.get(taskId)?.state).toBe('running');
      const settled = other.tasks.whenSettled(taskId);
      expect(other.cancelTask(taskId)).toBe(true);
      expect((await settled)?.state).toBe('cancelled');
      expect(await run.result).toMatchObject({ abnormal: false, text: 'done' });
    } finally {
      attacker.disconnect();
    }
  });

  it('bad messages are one warning at once, and the count of the rest when the backend closes', async () => {
    const k = await scale.kit(STALL_MS);
    const backend = await k.backend();
    const { redis, keys } = backend.parts;
    const warnings = badDataWarnings();
    try {
      const t = Date.now();
      const bad = [
        '{not json',
        JSON.stringify({ op: 'put', info: { taskId: 'task_x', agentName: 'a', description: 'd', sessionId: 's', state: 'running', startedAt: t, endedAt: t } }),
        JSON.stringify({ op: 'explode', taskId: 'task_x' }),
        JSON.stringify({ op: 'put', info: 'nope' }),
      ];
      for (const message of bad) await redis.publish(keys.tasksChannel, message);
      await caughtUp(backend);
      await warningsDelivered();
      expect(warnings.messages).toEqual([expect.stringContaining(`Skipped a message on ${keys.tasksChannel} that no engine or worker publishes (it is not JSON): {not json. The copies of other engines' tasks were kept as they were`)]);
      await backend.close();
      await warningsDelivered();
      expect(warnings.messages).toHaveLength(2);
      expect(warnings.messages[1]).toContain(`3 more bad messages were skipped on ${keys.tasksChannel} since the last warning`);
    } finally {
      warnings.stop();
    }
  });
});
