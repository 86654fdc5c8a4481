/**
 * What a `taken` or `dropped` message on the results channel costs an engine's copy: it
 * forgets the result at once and asks Redis its fate (apply-result-message.ts). Each message
 * used to send its own read, so a flood of forged ones naming one result was a flood of reads;
 * now a result has one read in flight, and the words that came meanwhile cost one more, sent
 * once it answers, whose answer decides: the one in flight may have been answered before the
 * change a later word announces.
 */
import { describe, expect, it } from 'vitest';
import { applyResultMessage, type ResultsState } from '../../src/backend/apply-result-message.js';
import { DroppedNotes } from '../../src/backend/dropped-notes.js';
import { GoneChecks } from '../../src/backend/gone-checks.js';
import { WaitingMirror } from '../../src/backend/waiting-mirror.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';

type Fate = TaskInfo | 'gone' | 'failed' | undefined;

/** A copy whose reads of a result's fate the test answers, one per read, in order. */
function heldCopy(): { state: ResultsState; answer: (i: number, fate: Fate) => Promise<void>; reads: () => number } {
  const pending: ((fate: Fate) => void)[] = [];
  const state: ResultsState = {
    mirror: new WaitingMirror(),
    notes: new DroppedNotes(async () => null),
    origin: 'me',
    stored: async () => undefined,
    fate: () => new Promise((resolve) => pending.push(resolve)),
    checks: new GoneChecks(),
  };
  return {
    state,
    answer: async (i, fate) => {
      pending[i]!(fate);
      await new Promise((resolve) => setImmediate(resolve));
    },
    reads: () => pending.length,
  };
}

describe("a copy's reads of a result's fate", () => {
  const info: TaskInfo = { taskId: 'task_1', agentName: 'explorer', description: 'd', sessionId: 's', parentRunId: 'run_r', background: true, state: 'done', startedAt: 1, endedAt: 2, result: 'r' };
  const taken = { op: 'taken', sessionId: 's', keys: ['task_1\n1'], origin: 'forged' } as const;

  it('are one in flight and one after, however many words came; the last decides', async () => {
    const { state, answer, reads } = heldCopy();
    state.mirror.add(info);
    for (let i = 0; i < 10_000; i++) applyResultMessage(state, taken);
    expect(reads()).toBe(1);
    expect(state.mirror.of('s')).toEqual([]); // forgotten at once, on the word
    await answer(0, 'gone'); // answered before the words that came meanwhile: not believed
    expect(reads()).toBe(2);
    expect(state.mirror.of('s')).toEqual([]);
    await answer(1, info); // Redis still holds it: the words were forged
    expect(state.mirror.of('s')).toEqual([info]);
    expect(reads()).toBe(2);
  });

  it('a real take while a read is in flight stays taken, though the read in flight found the result', async () => {
    const { state, answer, reads } = heldCopy();
    state.mirror.add(info);
    applyResultMessage(state, taken); // forged
    applyResultMessage(state, { ...taken, origin: 'another engine' }); // real, right behind it
    await answer(0, info); // read before the real take
    expect(state.mirror.of('s')).toEqual([]);
    await answer(1, 'gone');
    expect(state.mirror.of('s')).toEqual([]);
    expect(state.mirror.wasTaken('task_1\n1')).toBe(true);
    expect(reads()).toBe(2);
  });
});
