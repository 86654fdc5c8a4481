/**
 * `DroppedNotes`, an engine's copy of the notes of dropped background results, takes a note
 * from Redis only (read back), so a forged channel message cannot write one. A read-back sent
 * before a change must not undo it: a conversation has one read in flight, and a change
 * announced (or made here) while it is costs one more read, sent once it answers, whose answer
 * is the one applied. Each used to send a read of its own: a flood of forged messages on one
 * conversation was a flood of reads (results-channel-flood.test.ts).
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
    notes.changed('s'); // the take is sent to Redis: a read after it is owed
    expect(reader.count()).toBe(1);
    await reader.answer(0, { count: 2, taskIds: ['task_a', 'task_b'] }); // before the take
    expect(notes.take('s')).toBeUndefined();
    expect(reader.count()).toBe(2); // read 1, after the take
    await reader.answer(1, { count: 1, taskIds: ['task_b'] }); // the drop only
    expect(notes.take('s')).toEqual({ count: 1, taskIds: ['task_b'] });
  });

  it('a flood of refreshes is one read in flight and one after; only the last applies; a failed one changes nothing', async () => {
    const reader = heldReader();
    const notes = new DroppedNotes(reader.read);
    notes.set('s', { count: 1, taskIds: ['task_a'] });
    for (let i = 0; i < 10_000; i++) notes.refresh('s');
    expect(reader.count()).toBe(1);
    await reader.answer(0, { count: 9, taskIds: ['task_old'] });
    expect(reader.count()).toBe(2);
    expect(notes.take('s')).toEqual({ count: 1, taskIds: ['task_a'] }); // the first answer was not applied
    notes.set('s', { count: 1, taskIds: ['task_a'] });
    await reader.answer(1, null);
    expect(notes.take('s')).toBeUndefined();
    expect(notes.has('s')).toBe(false);
    notes.set('s', { count: 1, taskIds: ['task_a'] });
    notes.refresh('s');
    await reader.answer(2, 'failed');
    expect(notes.take('s')).toEqual({ count: 1, taskIds: ['task_a'] });
    expect(reader.count()).toBe(3);
  });

  it('names no task longer than a task id can be, however the note came', () => {
    const notes = new DroppedNotes(heldReader().read);
    notes.set('s', { count: 2, taskIds: ['x'.repeat(100_000), '', 'task_a'] });
    expect(notes.take('s')).toEqual({ count: 2, taskIds: ['task_a'] });
  });
});
