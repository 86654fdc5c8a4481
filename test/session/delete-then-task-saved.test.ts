/**
 * A conversation's delete and a task save asked right after it, neither awaited before the
 * other is made (a task of the conversation still starting as the conversation is deleted
 * through the store). The delete's scan for the conversation's task files runs in the
 * conversation's queue, so a save asked after it is never found and removed by it; and such
 * a save is refused, naming why, while the conversation is not written anew, rather than
 * leave a task file that outlives its conversation. A new conversation of the id (written
 * first, as a run writes its prompt) saves its tasks as usual, and the delete does not reach them.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();

const task = (taskId: string, ownerSessionId: string) => ({ taskId, agentName: 'beta', description: 'look', ownerSessionId, parentSessionId: ownerSessionId });
const files = async (): Promise<string[]> => (await readdir(join(ws.dir, '.rxharness', 'sessions')).catch(() => [])).sort();

describe('FileSessionStore: a task save asked after its conversation is deleted', () => {
  it('is refused with an error saying why, and leaves no task file', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: 'k' });
    await store.append('notes', [{ role: 'user', content: 'hello' }]);
    await store.saveTaskInfo(task('t1', 'notes'));
    const [deleted, saved] = await Promise.allSettled([store.delete('notes'), store.saveTaskInfo(task('t2', 'notes'))]);
    expect(deleted.status).toBe('fulfilled');
    expect(saved).toMatchObject({ status: 'rejected', reason: { name: 'DeletedConversationError', code: 'DELETED_CONVERSATION', taskId: 't2', conversation: 'notes' } });
    expect((saved as PromiseRejectedResult).reason.message).toMatch(/^Refusing to save task "t2": its conversation "notes" was deleted before the save was asked/);
    expect(await store.loadTaskInfo('t1')).toBeUndefined();
    expect(await store.loadTaskInfo('t2')).toBeUndefined();
    expect(await files()).toEqual([]);
  });

  it('of a new conversation of the id (written first) is kept, out of reach of the delete before it', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: 'k' });
    await store.append('notes', [{ role: 'user', content: 'hello' }]);
    await store.saveTaskInfo(task('t1', 'notes'));
    // The append and the save wait for the delete's turn in the queue, its scan included: however
    // slow that scan, it cannot find (and remove) the task saved after it.
    await Promise.all([store.delete('notes'), store.append('notes', [{ role: 'user', content: 'again' }]), store.saveTaskInfo(task('t2', 'notes'))]);
    expect(await store.loadTaskInfo('t1')).toBeUndefined();
    expect(await store.loadTaskInfo('t2')).toEqual(task('t2', 'notes'));
    expect(await store.load('notes')).toEqual([{ role: 'user', content: 'again' }]);
    expect((await files()).filter((name) => name.endsWith('.task.json'))).toEqual(['t2.task.json']);
  });
});
