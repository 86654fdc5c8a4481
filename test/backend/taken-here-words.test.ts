/**
 * A result this engine took is given back only by its own put-back (made here at once): no
 * word read from the results channel un-takes it (waiting-mirror.ts). Its take may not have
 * reached Redis yet (a take waits behind the conversation's put-back still waiting for its
 * place, deferred-takes.ts), so Redis, read on a put-back's message (its own, or a forged one)
 * or on a forged `taken`, still holds the result; the copy used to un-take it and add it
 * back, and the conversation's next prompt delivered it a second time.
 */
import { describe, expect, it } from 'vitest';
import { applyResultMessage, type ResultsState } from '../../src/backend/apply-result-message.js';
import { DroppedNotes } from '../../src/backend/dropped-notes.js';
import { GoneChecks } from '../../src/backend/gone-checks.js';
import { WaitingMirror } from '../../src/backend/waiting-mirror.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';

/** A copy whose reads of Redis answer that the result still waits there, once the test lets them. */
function heldCopy(info: TaskInfo): { state: ResultsState; answer: () => Promise<void>; reads: () => number } {
  const pending: (() => void)[] = [];
  const read = <T>(value: T): Promise<T> => new Promise((resolve) => pending.push(() => resolve(value)));
  const state: ResultsState = {
    mirror: new WaitingMirror(),
    notes: new DroppedNotes(async () => null),
    origin: 'me',
    stored: () => read(info),
    fate: () => read(info),
    checks: new GoneChecks(),
  };
  return {
    state,
    answer: async () => {
      for (const resolve of pending.splice(0)) resolve();
      await new Promise((resolve) => setImmediate(resolve));
    },
    reads: () => pending.length,
  };
}

describe('a result this engine took, its take not in Redis yet', () => {
  const info: TaskInfo = { taskId: 'task_1', agentName: 'explorer', description: 'd', sessionId: 's', parentRunId: 'run_r', background: true, state: 'done', startedAt: 1, endedAt: 2, result: 'r' };
  const key = 'task_1\n1';

  /** What `SharedResults.take` does to the copy. */
  const takenHere = (mirror: WaitingMirror): void => {
    mirror.remove('s', key);
    mirror.markTaken(key, 's', true);
  };

  it.each([
    ['a put-back message', { op: 'put', info, back: true }],
    ['a forged taken', { op: 'taken', sessionId: 's', keys: [key], origin: 'forged' }],
  ] as const)('stays taken on %s, though Redis still holds it', async (_, message) => {
    const { state, answer, reads } = heldCopy(info);
    state.mirror.add(info);
    takenHere(state.mirror);
    applyResultMessage(state, message);
    expect(reads()).toBe(1);
    await answer();
    expect(state.mirror.of('s')).toEqual([]);
    expect(state.mirror.wasTaken(key)).toBe(true);
  });
});
