/**
 * `taken` messages on the results channel naming thousands of made-up results (anyone with
 * access to the Redis can publish one). An engine's copy remembered 10,000 results taken or
 * dropped, the oldest going past that bound whatever had said so: one forged `taken` naming
 * 10,001 made-up keys pushed out every other mark, this engine's own takes and results Redis
 * recorded taken elsewhere too, so the launching engine's late put of a result already
 * delivered was delivered a second time. Now marks only a word made (a result the copy knows
 * no conversation of) are bounded apart and push out only each other (taken-marks.ts), and a
 * message naming more than 10,000 results, or a key longer than a result's, is skipped as bad data.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { publishResult, SharedResults } from '../../src/backend/shared-results.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { resultKey } from '../../src/delegation/undelivered-results.js';
import { badDataWarnings, warningsDelivered } from './planted-data.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';
import { deliveredOnOther, settled, twoCopies } from './support/results-channel.js';

const STALL_MS = 60_000;

/** A forged `taken` naming `count` made-up results of a conversation no engine knows, the `from`th on. */
const forged = (from: number, count: number, t: number): string =>
  JSON.stringify({ op: 'taken', sessionId: 'ses_x', keys: Array.from({ length: count }, (_, i) => `task_z${from + i}\n${t}`), origin: 'forged' });

describe.skipIf(!HAS_REDIS)('a flood of forged taken words on made-up results', () => {
  const scale = useScaleKits();
  const t = Date.now();
  const info: TaskInfo = { taskId: 'task_a', agentName: 'explorer', description: 'd', sessionId: 'ses_p', parentRunId: 'run_r', background: true, state: 'done', startedAt: t, endedAt: t + 10, result: 'answer of task_a' };

  it('10,002 words in two messages do not push out what this engine took: its own late put is not delivered again', { timeout: 60_000 }, async () => {
    const k = await scale.kit(STALL_MS);
    const backend = await k.backend();
    const { redis, keys, hub } = backend.parts;
    const { results, stop } = await SharedResults.create(redis, keys, hub);
    const attacker = new Redis(scale.redis.url);
    try {
      await publishResult(redis, keys, info); // the worker's put
      await settled(backend);
      expect(results.take('ses_p').map((r) => r.taskId)).toEqual(['task_a']); // delivered by a prompt here
      await settled(backend);
      await attacker.publish(keys.resultsChannel, forged(0, 5001, t));
      await attacker.publish(keys.resultsChannel, forged(5001, 5001, t));
      await settled(backend);
      expect(results.wasTaken(info)).toBe(true);
      results.put(info); // the task's end reaches its launching engine: its own copy of the result
      expect(results.take('ses_p')).toEqual([]);
    } finally {
      attacker.disconnect();
      stop();
    }
  });

  it('nor what another engine took, as Redis records: the launching engine does not deliver its own put of it', { timeout: 60_000 }, async () => {
    const k = await scale.kit(STALL_MS);
    const copies = await twoCopies(k);
    const { one, two, a } = copies;
    const { keys } = one.parts;
    const attacker = new Redis(scale.redis.url);
    try {
      await deliveredOnOther(copies, info);
      await attacker.publish(keys.resultsChannel, forged(0, 5001, t));
      await attacker.publish(keys.resultsChannel, forged(5001, 5001, t));
      await settled(one, two);
      expect(a.results.wasTaken(info)).toBe(true);
      a.results.put(info);
      expect(a.results.take('ses_p')).toEqual([]);
    } finally {
      attacker.disconnect();
      copies.stop();
    }
  });

  const long = `${'x'.repeat(2000)}\n${t}`;
  it.each([
    ['a taken naming 10,001 results', (key: string) => ({ op: 'taken', sessionId: 'ses_p', keys: [key, ...(JSON.parse(forged(0, 10_000, t)) as { keys: string[] }).keys], origin: 'forged' }), 'a taken message names at most 10000 results, each key at most 1041 characters'],
    ['a taken naming a key longer than a result has', (key: string) => ({ op: 'taken', sessionId: 'ses_p', keys: [key, long], origin: 'forged' }), 'a taken message names at most 10000 results, each key at most 1041 characters'],
    ['a dropped naming a key longer than a result has', () => ({ op: 'dropped', sessionId: 'ses_p', taskId: 'task_a', key: long }), 'the "key" of a dropped message is at most 1041 characters'],
  ] as const)('%s is skipped as bad data; the result it names still waits', { timeout: 60_000 }, async (_, message, problem) => {
    const k = await scale.kit(STALL_MS);
    const backend = await k.backend();
    const { redis, keys, hub } = backend.parts;
    const { results, stop } = await SharedResults.create(redis, keys, hub);
    const attacker = new Redis(scale.redis.url);
    const warnings = badDataWarnings();
    try {
      await publishResult(redis, keys, info);
      await settled(backend);
      await attacker.publish(keys.resultsChannel, JSON.stringify(message(resultKey(info))));
      await settled(backend);
      await warningsDelivered();
      expect(warnings.messages).toHaveLength(1);
      expect(warnings.messages[0]).toContain(`(${problem})`);
      expect(results.take('ses_p').map((r) => r.taskId)).toEqual(['task_a']);
    } finally {
      warnings.stop();
      attacker.disconnect();
      stop();
    }
  });
});
