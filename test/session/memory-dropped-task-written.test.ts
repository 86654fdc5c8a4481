/**
 * A `MemorySessionStore` past `maxTaskSessions` drops the oldest task sessions, keeping only a
 * mark of each (its id and conversation). A task still running then writes on to its session:
 * that session is still a task's, so `list()` must not name it as a conversation, and its
 * delete (an ephemeral run's end) still counts as a task session's.
 */
import { describe, expect, it } from 'vitest';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { TaskSessionInfo } from '../../src/session/session-store.js';

const task = (taskId: string, ownerSessionId: string): TaskSessionInfo => ({ taskId, agentName: 'beta', description: 'look', ownerSessionId, parentSessionId: ownerSessionId });
const say = (content: string) => [{ role: 'user' as const, content }];
const listed = (store: MemorySessionStore): string[] => store.list().map((s) => s.sessionId).sort();

describe('MemorySessionStore: a task session dropped past the bounds, then written again', () => {
  it('is not listed as a conversation', () => {
    const store = new MemorySessionStore({ maxTaskSessions: 1 });
    store.append('conv', say('start two tasks'));
    store.saveTaskInfo(task('t1', 'conv'));
    store.append('t1', say('work'));
    store.saveTaskInfo(task('t2', 'conv')); // t1 is dropped past the bound
    expect(store.loadTaskInfo('t1')).toBeUndefined();
    store.append('t1', say('more work')); // its task still runs
    expect(listed(store)).toEqual(['conv']);
  });

  it('stays a task once dropped again past maxSessions, and its delete is no deleted conversation', () => {
    const store = new MemorySessionStore({ maxTaskSessions: 1, maxSessions: 2 });
    store.append('conv', say('start two tasks'));
    store.saveTaskInfo(task('t1', 'conv'));
    store.saveTaskInfo(task('t2', 'conv')); // t1 is dropped past maxTaskSessions
    store.append('t1', say('more work'));
    store.append('other', say('hello')); // conv is dropped past maxSessions
    store.append('third', say('hello')); // and t1 now too
    store.append('t1', say('still more work'));
    expect(listed(store)).toEqual(['third']);
    store.delete('t1'); // the task's run ends: a task session's delete
    expect(() => store.saveTaskInfo(task('late', 't1'))).not.toThrow();
  });

  it("goes with its conversation's delete", () => {
    const store = new MemorySessionStore({ maxTaskSessions: 1 });
    store.append('conv', say('start two tasks'));
    store.saveTaskInfo(task('t1', 'conv'));
    store.saveTaskInfo(task('t2', 'conv')); // t1 is dropped past the bound
    store.append('t1', say('more work')); // its task still runs
    store.delete('conv');
    expect(store.load('t1')).toEqual([]);
    expect(listed(store)).toEqual([]);
  });

  it('a conversation taking its id once its own conversation was deleted is listed', () => {
    const store = new MemorySessionStore({ maxTaskSessions: 1 });
    store.append('conv', say('start two tasks'));
    store.saveTaskInfo(task('t1', 'conv'));
    store.saveTaskInfo(task('t2', 'conv'));
    store.delete('conv'); // its tasks, the dropped one's mark too, go with it
    store.append('t1', say('a new conversation'));
    expect(listed(store)).toEqual(['t1']);
  });
});
