/**
 * A flood of forged messages on the results channel (`<prefix>:results-events`). Each
 * `taken` message's key used to cost every engine a read of that result's fate in Redis, and
 * each `noted` or `renoted` a read of the conversation's note: 10,000 forged messages were
 * 10,000 reads (a `taken` one, two commands each) per engine. Now a result's fate, and a
 * conversation's note, has one read in flight per engine, and the messages that come meanwhile
 * cost one more read after it, however many they were (gone-checks.ts). What waits stays
 * right: the flood forgets no result Redis holds, and changes no note; a real take behind it
 * still reaches every engine (the read in flight may have been answered before it).
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { takeDroppedNote } from '../../src/backend/dropped-note-store.js';
import { SharedResults } from '../../src/backend/shared-results.js';
import { takeWaitingResults } from '../../src/backend/waiting-result-take.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { calls, flood } from './command-stats.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';
import { oneWaitingOneDropped, settled } from './support/results-channel.js';

const STALL_MS = 60_000;
const FLOOD = 10_000;

describe.skipIf(!HAS_REDIS)('a flood of forged messages on the results channel', () => {
  const scale = useScaleKits();
  const t = Date.now();
  const result = (taskId: string, run: number): TaskInfo => ({ taskId, agentName: 'explorer', description: 'd', sessionId: 'ses_f', parentRunId: 'run_r', background: true, state: 'done', startedAt: t + run, endedAt: t + run, result: `answer of ${taskId}` });

  it.each([
    ['taken', 'zscore', { op: 'taken', sessionId: 'ses_f', keys: [`task_new\n${t + 1}`], origin: 'forged' }],
    ['noted', 'get', { op: 'noted', sessionId: 'ses_f', count: 1, taskIds: ['task_fake'], origin: 'forged' }],
    ['renoted', 'get', { op: 'renoted', sessionId: 'ses_f', count: 1, taskIds: ['task_fake'], origin: 'forged' }],
  ])('of %s messages costs a bounded number of reads (%s) and changes nothing', { timeout: 60_000 }, async (_op, command, message) => {
    const k = await scale.kit(STALL_MS);
    const [one, other] = [await k.backend(), await k.backend()];
    const { redis, keys } = one.parts;
    // The bound keeps one result: the older is dropped, and the conversation has a note.
    const tracker = one.createTracker({ undeliveredResults: 1 });
    const attacker = new Redis(scale.redis.url);
    try {
      await oneWaitingOneDropped([one, other], result('task_old', 0), result('task_new', 1));

      const before = await calls(attacker, command);
      await flood(attacker, keys.resultsChannel, JSON.stringify(message), FLOOD);
      await settled(one, other);
      // Two backends' copies hear the channel: one read per message was 20,000 (a taken
      // message's, in each of two commands); one in flight per copy is a few per chunk the subscriber reads.
      expect((await calls(attacker, command)) - before).toBeLessThan(FLOOD / 10);
      expect(tracker.takeUndelivered('ses_f').map((r) => r.taskId)).toEqual(['task_new']);
      expect(tracker.takeDropped('ses_f')).toEqual({ count: 1, taskIds: ['task_old'] });
    } finally {
      attacker.disconnect();
      await tracker.close();
    }
  });

  it('a real take of the results and note behind a flood of forged ones still reaches every engine', { timeout: 60_000 }, async () => {
    const k = await scale.kit(STALL_MS);
    const [one, other] = [await k.backend(), await k.backend()];
    const { redis, keys } = one.parts;
    const tracker = other.createTracker({ undeliveredResults: 1 }); // writes the bound
    const watcher = await SharedResults.create(redis, keys, one.parts.hub);
    const attacker = new Redis(scale.redis.url);
    try {
      await oneWaitingOneDropped([one, other], result('task_old', 0), result('task_new', 1));
      expect(watcher.results.size).toBe(1);

      await flood(attacker, keys.resultsChannel, JSON.stringify({ op: 'taken', sessionId: 'ses_f', keys: [`task_new\n${t + 1}`], origin: 'forged' }), FLOOD);
      await flood(attacker, keys.resultsChannel, JSON.stringify({ op: 'noted', sessionId: 'ses_f', count: 1, taskIds: ['task_old'], origin: 'forged' }), FLOOD);
      // What another engine's prompt sends as it takes them, right behind the flood.
      await takeWaitingResults(attacker, keys, 'ses_f', [`task_new\n${t + 1}`], 'real');
      await takeDroppedNote(attacker, keys, 'ses_f', { count: 1, taskIds: ['task_old'] }, 'real');
      await waitFor(() => watcher.results.size === 0);
      await settled(one, other);
      expect(watcher.results.take('ses_f')).toEqual([]);
      expect(watcher.results.takeDropped('ses_f')).toBeUndefined();
    } finally {
      attacker.disconnect();
      watcher.stop();
      await tracker.close();
    }
  });
});
