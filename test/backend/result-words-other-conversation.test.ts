/**
 * A copy's words on a result are kept by conversation and result, and a word naming another
 * conversation than the one the copy knows the result under changes nothing
 * (waiting-mirror.ts): whichever of Redis's answers comes first, a forged `taken` naming
 * another conversation neither loses a waiting result nor un-takes a delivered one. The words
 * used to be kept by result alone, so the last word's answer, read in the conversation it
 * named, decided for all.
 */
import { describe, expect, it } from 'vitest';
import { applyResultMessage, type ResultsState } from '../../src/backend/apply-result-message.js';
import { DroppedNotes } from '../../src/backend/dropped-notes.js';
import { GoneChecks } from '../../src/backend/gone-checks.js';
import { WaitingMirror } from '../../src/backend/waiting-mirror.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';

type Fate = TaskInfo | 'gone' | 'failed' | undefined;

/** A copy whose reads of a result's fate the test answers, by the conversation read. */
function heldCopy(): { state: ResultsState; answer: (sessionId: string, fate: Fate) => Promise<void>; reads: () => string[] } {
  const pending: { sessionId: string; resolve: (fate: Fate) => void }[] = [];
  const state: ResultsState = {
    mirror: new WaitingMirror(),
    notes: new DroppedNotes(async () => null),
    origin: 'me',
    stored: async () => undefined,
    fate: (sessionId) => new Promise((resolve) => pending.push({ sessionId, resolve })),
    checks: new GoneChecks(),
  };
  return {
    state,
    answer: async (sessionId, fate) => {
      pending.find((p) => p.sessionId === sessionId)?.resolve(fate); // none when it was never read
      await new Promise((resolve) => setImmediate(resolve));
    },
    reads: () => pending.map((p) => p.sessionId),
  };
}

describe('a forged taken naming a result under another conversation', () => {
  const info: TaskInfo = { taskId: 'task_1', agentName: 'explorer', description: 'd', sessionId: 's', parentRunId: 'run_r', background: true, state: 'done', startedAt: 1, endedAt: 2, result: 'r' };
  const key = 'task_1\n1';
  const taken = (sessionId: string) => ({ op: 'taken', sessionId, keys: [key], origin: 'forged' }) as const;

  it.each([['before'], ['after']])('loses no waiting result, the other conversation answering %s its own', async (when) => {
    const { state, answer } = heldCopy();
    state.mirror.add(info);
    applyResultMessage(state, taken('s'));
    applyResultMessage(state, taken('other'));
    expect(state.mirror.of('s')).toEqual([]); // forgotten at once, on the first word
    if (when === 'before') await answer('other', undefined);
    await answer('s', info); // Redis still holds it
    if (when === 'after') await answer('other', undefined);
    expect(state.mirror.of('s')).toEqual([info]);
    expect(state.mirror.wasTaken(key)).toBe(false);
  });

  it('does not un-take a result known taken in its own conversation', async () => {
    const { state, answer, reads } = heldCopy();
    state.mirror.add(info);
    applyResultMessage(state, { ...taken('s'), origin: 'another engine' }); // a real take
    await answer('s', 'gone');
    applyResultMessage(state, taken('other'));
    expect(reads()).toEqual(['s']); // not read in the other conversation: it is not there
    expect(state.mirror.wasTaken(key)).toBe(true);
  });
});
