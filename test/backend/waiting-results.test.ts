/**
 * Background results waiting for their conversation, with a Redis backend: one bound (kept
 * in Redis, as many as an engine's own tracker keeps), and a note that names exactly what it
 * dropped (issue 27, review of item 5). Each engine used to keep an unbounded copy of the
 * results in Redis beside its own bounded list: a result its list dropped (and the note
 * named) was still delivered from the copy, and the copy grew without end.
 */
import { describe, expect, it } from 'vitest';
import { SharedResults, publishResult } from '../../src/backend/shared-results.js';
import { takeDroppedNote } from '../../src/backend/dropped-note-store.js';
import { writeWaitingBound } from '../../src/backend/waiting-results-store.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { DEFAULT_TASK_TRACKER_LIMITS } from '../../src/delegation/task-tracker-limits.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits, waitFor } from './scale-kit.js';

const BOUND = DEFAULT_TASK_TRACKER_LIMITS.undeliveredResults;

function finished(i: number, sessionId = 's'): TaskInfo {
  return { taskId: `task_${i}`, agentName: 'digger', description: `dig ${i}`, sessionId, parentRunId: 'run_1', background: true, state: 'done', startedAt: 1, endedAt: 2, result: `found ${i}` };
}

describe.skipIf(!HAS_REDIS)('background results waiting in Redis', () => {
  const scale = useScaleKits();

  it('past the bound, the note names exactly the dropped ones, and none of them is delivered, then or later on any engine', async () => {
    const kit = await scale.kit();
    const [engineSide, workerSide] = await Promise.all([kit.backend(), kit.backend()]);
    const tracker = engineSide.createTracker();
    const extra = 5;
    // Each task as it happens: the worker puts its result in Redis, then the engine that
    // launched it records it (its own tracker has it too).
    for (let i = 0; i < BOUND + extra; i++) {
      const info = finished(i);
      tracker.start(info, () => undefined);
      // The worker's copy names the run as the engine's does (the job carries its start).
      await publishResult(workerSide.parts.redis, workerSide.parts.keys, { ...info, startedAt: tracker.get(info.taskId)!.startedAt });
      tracker.finish(info.taskId, 'done', info.result!);
    }
    await caughtUp(engineSide);

    const delivered = tracker.takeUndelivered('s').map((t) => t.taskId);
    const note = tracker.takeDropped('s');
    const dropped = Array.from({ length: extra }, (_, i) => `task_${i}`);
    expect(note).toEqual({ count: extra, taskIds: dropped });
    expect(delivered).toHaveLength(BOUND);
    expect(delivered.filter((id) => dropped.includes(id))).toEqual([]);
    // Said once, delivered once: not here again, nor on an engine that starts now.
    await caughtUp(engineSide);
    expect(tracker.takeUndelivered('s')).toEqual([]);
    expect(tracker.takeDropped('s')).toBeUndefined();
    const later = (await kit.backend()).createTracker();
    expect(later.takeUndelivered('s')).toEqual([]);
    expect(later.takeDropped('s')).toBeUndefined();
    await Promise.all([tracker.close(), later.close()]);
  });

  it("an engine's copy stays at the bound under 10,000 results, as Redis does", { timeout: 60_000 }, async () => {
    const kit = await scale.kit();
    const [engineSide, workerSide] = await Promise.all([kit.backend(), kit.backend()]);
    const { parts } = engineSide;
    const { results, stop } = await SharedResults.create(parts.redis, parts.keys, parts.hub);
    let largest = 0;
    for (let chunk = 0; chunk < 10; chunk++) {
      await Promise.all(Array.from({ length: 1000 }, (_, i) => publishResult(workerSide.parts.redis, workerSide.parts.keys, finished(chunk * 1000 + i, `s${i % 7}`))));
      await caughtUp(engineSide);
      largest = Math.max(largest, results.size);
    }
    expect(largest).toBe(BOUND);
    expect(await parts.redis.zcard(parts.keys.waitingOrder)).toBe(BOUND);
    // Every conversation's note counts its dropped results; together, all that did not fit.
    const notes = Array.from({ length: 7 }, (_, i) => results.takeDropped(`s${i}`)?.count ?? 0);
    expect(notes.reduce((a, b) => a + b, 0)).toBe(10_000 - BOUND);
    const left = Array.from({ length: 7 }, (_, i) => results.take(`s${i}`).length);
    expect(left.reduce((a, b) => a + b, 0)).toBe(BOUND);
    stop();
  });

  // A failing Redis script keeps the writes it made before it failed: a take that failed on
  // the note after forgetting the result never told the other engines, which delivered it again.
  it('a dropped-results note that is not one (not JSON, another shape, another type) is taken as none: nothing fails half way', async () => {
    const kit = await scale.kit();
    const [a, b, workerSide] = await Promise.all([kit.backend(), kit.backend(), kit.backend()]);
    const { redis, keys } = workerSide.parts;
    const [mirrorA, mirrorB] = await Promise.all([a, b].map(({ parts }) => SharedResults.create(parts.redis, parts.keys, parts.hub)));
    await redis.set(keys.droppedResults('s'), 'garbage');
    await publishResult(redis, keys, finished(1));
    await Promise.all([caughtUp(a), caughtUp(b)]);
    expect(mirrorA!.results.take('s').map((t) => t.taskId)).toEqual(['task_1']);
    // Once Redis forgot it, the other engine heard so: it does not deliver it a second time.
    await waitFor(async () => (await redis.exists(keys.results('s'))) === 0);
    await caughtUp(b);
    expect(mirrorB!.results.take('s')).toEqual([]);
    expect(await redis.exists(keys.droppedResults('s'))).toBe(0);

    // A drop into a bad note starts a fresh one.
    await writeWaitingBound(redis, keys, { undeliveredResults: 1 });
    await redis.set(keys.droppedResults('t'), '{"count":"one"}');
    await redis.rpush(keys.droppedResults('u'), 'a list');
    await publishResult(redis, keys, finished(2, 't'));
    await publishResult(redis, keys, finished(3, 'u')); // drops task_2, noted for t
    await publishResult(redis, keys, finished(4, 'u')); // drops task_3, noted for u
    expect(JSON.parse((await redis.get(keys.droppedResults('t')))!)).toEqual({ count: 1, taskIds: ['task_2'] });
    expect(JSON.parse((await redis.get(keys.droppedResults('u')))!)).toEqual({ count: 1, taskIds: ['task_3'] });

    // A shown note subtracted from a bad one: none is left.
    await redis.set(keys.droppedResults('v'), '[1,2]');
    await takeDroppedNote(redis, keys, 'v', { count: 1, taskIds: ['task_9'] }, 'test');
    expect(await redis.exists(keys.droppedResults('v'))).toBe(0);
    for (const mirror of [mirrorA, mirrorB]) mirror!.stop();
  });
});
