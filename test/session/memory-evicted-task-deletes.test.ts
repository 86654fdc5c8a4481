/**
 * A `MemorySessionStore` keeps at most `maxTaskSessions` (1,000) task sessions; the oldest go
 * past that. Their delete used to count as a conversation's, as the store held nothing of
 * them any more: ephemeral runs (each deletes its tasks' sessions as it ends) with more than
 * 11,000 tasks alive at once pushed a deleted conversation out of the 10,000 the store
 * remembers, and a task save asked late for it was kept, outliving (resurrecting) it. The
 * store now remembers which tasks it dropped (bounded), so their deletes count as tasks'.
 */
import { describe, expect, it } from 'vitest';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { TaskSessionInfo } from '../../src/session/session-store.js';

/** Task sessions alive at once: 10,000 past the 1,000 the store keeps, as many as the deleted conversations it remembers. */
const ALIVE = 11_000;
const task = (taskId: string, ownerSessionId: string): TaskSessionInfo => ({ taskId, agentName: 'beta', description: 'look', ownerSessionId, parentSessionId: ownerSessionId });
const hello = [{ role: 'user' as const, content: 'hello' }];
const refusedFor = (conversation: string) => ({ name: 'DeletedConversationError', taskId: 'late', conversation });

describe('MemorySessionStore: the delete of a task session dropped past maxTaskSessions', () => {
  it('ephemeral runs with 11,000 tasks alive ending: a deleted conversation still refuses a late task save', () => {
    const store = new MemorySessionStore();
    store.append('A', hello);
    store.delete('A');
    for (let i = 0; i < ALIVE; i++) {
      store.saveTaskInfo(task(`t${i}`, `e${i % 7}`));
      store.append(`t${i}`, [{ role: 'user', content: 'work' }]);
    }
    expect(store.loadTaskInfo('t0')).toBeUndefined(); // dropped past the bound, as before
    for (let i = 0; i < ALIVE; i++) store.delete(`t${i}`); // the runs end
    expect(() => store.saveTaskInfo(task('late', 'A'))).toThrow(expect.objectContaining(refusedFor('A')));
    expect(store.loadTaskInfo('late')).toBeUndefined();
  });

  it("a conversation taking the id of a dropped task that went with its own conversation's delete is refused late task saves once deleted", () => {
    const store = new MemorySessionStore({ maxTaskSessions: 1 });
    store.append('A', hello);
    store.saveTaskInfo(task('C', 'A'));
    store.saveTaskInfo(task('D', 'B')); // C is dropped past the bound
    store.delete('A'); // C, a task of A, goes with it: no task session any more
    store.append('C', hello); // a new conversation takes the id
    store.delete('C');
    expect(() => store.saveTaskInfo(task('late', 'C'))).toThrow(expect.objectContaining(refusedFor('C')));
  });

  it('remembers the latest 10,000 dropped tasks: the delete of one dropped before them counts as a conversation\'s', () => {
    const store = new MemorySessionStore({ maxTaskSessions: 0 }); // each task dropped as soon as saved
    store.saveTaskInfo(task('first', 'A'));
    store.saveTaskInfo(task('second', 'A'));
    for (let i = 0; i < 9_999; i++) store.saveTaskInfo(task(`t${i}`, 'A'));
    store.delete('first'); // 10,001 dropped since: forgotten as a task
    store.delete('second'); // still known as one
    expect(() => store.saveTaskInfo(task('late', 'first'))).toThrow(expect.objectContaining({ name: 'DeletedConversationError', conversation: 'first' }));
    expect(() => store.saveTaskInfo(task('late', 'second'))).not.toThrow();
  });
});
