/**
 * `DroppedNotes`, an engine's copy of the notes of dropped background results, takes a note
 * from Redis only (read back), so a forged channel message cannot write one. A read-back sent
 * before a change must not undo it: only a conversation's latest read is applied, and a change
 * made here sends a read of its own after it.
 */
import { describe, expect, it } from 'vitest';
import { DroppedNotes, type Note, type NoteReader } from '../../src/backend/dropped-notes.js';

/** A reader whose answers the test gives, one per read, in any order. */
function heldReader(): { read: NoteReader; answer: (i: number, note: Note | null | 'failed') => Promise<void>; count: () => number } {
  const pending: ((note: Note | null | 'failed') => void)[] = [];
  return {
    read: () => new Promise((resolve) => pending.push(resolve)),
    answer: async (i, note) => {
      pending[i]!(note);
      await new Promise((resolve) => setImmediate(resolve));
    },
    count: () => pending.length,
  };
}

describe('DroppedNotes read back from Redis', () => {
  it("a read sent before this mirror's take does not bring the taken note back", async () => {
    const reader = heldReader();
    const notes = new DroppedNotes(reader.read);
    notes.set('s', { count: 1, taskIds: ['task_a'] });
    notes.refresh('s'); // a drop announced: read 0 on its way
    expect(notes.take('s')).toEqual({ count: 1, taskIds: ['task_a'] });
    notes.changed('s'); // the take is sent to Redis: read 1, after it
    expect(reader.count()).toBe(2);
    await reader.answer(0, { count: 2, taskIds: ['task_a', 'task_b'] }); // before the take
    expect(notes.take('s')).toBeUndefined();
    await reader.answer(1, { count: 1, taskIds: ['task_b'] }); // after it: the drop only
    expect(notes.take('s')).toEqual({ count: 1, taskIds: ['task_b'] });
  });

  it('only the latest read applies, whatever order Redis answers in; a failed one changes nothing', async () => {
    const reader = heldReader();
    const notes = new DroppedNotes(reader.read);
    notes.set('s', { count: 1, taskIds: ['task_a'] });
    notes.refresh('s');
    notes.refresh('s');
    await reader.answer(1, null);
    await reader.answer(0, { count: 9, taskIds: ['task_old'] });
    expect(notes.take('s')).toBeUndefined();
    notes.set('s', { count: 1, taskIds: ['task_a'] });
    notes.refresh('s');
    await reader.answer(2, 'failed');
    expect(notes.take('s')).toEqual({ count: 1, taskIds: ['task_a'] });
  });

  it('names no task longer than a task id can be, however the note came', () => {
    const notes = new DroppedNotes(heldReader().read);
    notes.set('s', { count: 2, taskIds: ['x'.repeat(100_000), '', 'task_a'] });
    expect(notes.take('s')).toEqual({ count: 2, taskIds: ['task_a'] });
  });
});
