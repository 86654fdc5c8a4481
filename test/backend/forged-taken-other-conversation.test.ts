/**
 * A `taken` on the results channel naming a result under another conversation than its own
 * (anyone with access to the Redis can publish one). An engine's copy kept one word per result
 * but read its fate in the conversation the message named: a forged `taken` naming the
 * result's own conversation, then one naming another, ended with the other's answer
 * ("neither"), so the result, still waiting in Redis, was delivered by no engine until restart.
 * And one such word made a copy forget that a result it knew delivered was taken, so the
 * launching engine's own put of it delivered it a second time. Now a word naming another
 * conversation than the one the copy knows the result under changes nothing.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { publishResult, SharedResults } from '../../src/backend/shared-results.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { resultKey } from '../../src/delegation/undelivered-results.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';
import { deliveredOnOther, settled, twoCopies } from './support/results-channel.js';

const STALL_MS = 60_000;

describe.skipIf(!HAS_REDIS)('a forged taken naming a result under another conversation', () => {
  const scale = useScaleKits();
  const t = Date.now();
  const info: TaskInfo = { taskId: 'task_a', agentName: 'explorer', description: 'd', sessionId: 'ses_a', parentRunId: 'run_r', background: true, state: 'done', startedAt: t, endedAt: t + 10, result: 'answer' };
  const taken = (sessionId: string): string => JSON.stringify({ op: 'taken', sessionId, keys: [resultKey(info)], origin: 'forged' });

  it('after one naming its own: the result still waiting in Redis is delivered', async () => {
    const k = await scale.kit(STALL_MS);
    const backend = await k.backend();
    const { redis, keys, hub } = backend.parts;
    const { results, stop } = await SharedResults.create(redis, keys, hub);
    const attacker = new Redis(scale.redis.url);
    try {
      await publishResult(redis, keys, info);
      await settled(backend);
      await attacker.publish(keys.resultsChannel, taken('ses_a'));
      await attacker.publish(keys.resultsChannel, taken('ses_other'));
      await settled(backend);
      expect(await redis.hkeys(keys.results('ses_a'))).toEqual([resultKey(info)]);
      expect(results.take('ses_a').map((r) => r.taskId)).toEqual(['task_a']);
    } finally {
      attacker.disconnect();
      stop();
    }
  });

  it('after the result was delivered: the launching engine does not deliver its own put of it again', async () => {
    const k = await scale.kit(STALL_MS);
    const copies = await twoCopies(k);
    const { one, two, a } = copies;
    const { keys } = one.parts;
    const attacker = new Redis(scale.redis.url);
    try {
      await deliveredOnOther(copies, info);
      await attacker.publish(keys.resultsChannel, taken('ses_x'));
      await settled(one, two);
      expect(a.results.wasTaken(info)).toBe(true);
      a.results.put(info); // the task's end reaches its launching engine: its own copy of the result
      expect(a.results.take('ses_a')).toEqual([]);
    } finally {
      attacker.disconnect();
      copies.stop();
    }
  });
});
