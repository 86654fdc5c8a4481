/**
 * The memory store answers as the file store does: a task saved for a conversation deleted
 * and not written since is refused (kept, it would outlive its conversation, and a new
 * conversation of the id could resume it); once the id is written anew, its tasks save.
 */
import { describe, expect, it } from 'vitest';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';

const task = (taskId: string, ownerSessionId: string) => ({ taskId, agentName: 'beta', description: 'look', ownerSessionId, parentSessionId: ownerSessionId });

describe('MemorySessionStore: a task save after its conversation is deleted', () => {
  it('is refused, saying why, and keeps nothing', () => {
    const store = new MemorySessionStore();
    store.append('notes', [{ role: 'user', content: 'hello' }]);
    store.saveTaskInfo(task('t1', 'notes'));
    store.delete('notes');
    expect(() => store.saveTaskInfo(task('t2', 'notes'))).toThrow(expect.objectContaining({ name: 'DeletedConversationError', code: 'DELETED_CONVERSATION', taskId: 't2', conversation: 'notes' }));
    expect(store.loadTaskInfo('t1')).toBeUndefined();
    expect(store.loadTaskInfo('t2')).toBeUndefined();
  });

  it('saves the tasks of a new conversation of the id (written first, as a run writes its prompt), and of other conversations', () => {
    const store = new MemorySessionStore();
    store.delete('notes');
    store.saveTaskInfo(task('other', 'elsewhere'));
    store.append('notes', [{ role: 'user', content: 'again' }]);
    store.saveTaskInfo(task('t3', 'notes'));
    expect(store.loadTaskInfo('t3')).toMatchObject({ ownerSessionId: 'notes' });
    expect(store.loadTaskInfo('other')).toMatchObject({ ownerSessionId: 'elsewhere' });
  });
});
