/**
 * A store tells a task session's delete (not remembered as a deleted conversation, so an
 * ephemeral run's deletes cannot push one out) from a conversation's by its own records at the
 * delete, not by a list of the task saves it made: a task removed with its conversation is no
 * task session any more, so a conversation that takes its id is refused late task saves once
 * deleted; and a task kept for long is still one however many other tasks are saved meanwhile
 * (review56c).
 */
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { TaskSessionInfo } from '../../src/session/session-store.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

/** One more than the 10,000 task saves the stores used to remember. */
const MANY = 10_001;
const task = (taskId: string, ownerSessionId: string): TaskSessionInfo => ({ taskId, agentName: 'beta', description: 'look', ownerSessionId, parentSessionId: ownerSessionId });
const hello = [{ role: 'user' as const, content: 'hello' }];
const refusedFor = (conversation: string) => ({ name: 'DeletedConversationError', taskId: 'late', conversation });

/** Runs `step` for each of `ids`, `batch` at a time (the file store's writes, not all at once). */
async function inBatches(ids: readonly string[], step: (id: string, i: number) => Promise<unknown>, batch = 500): Promise<void> {
  for (let i = 0; i < ids.length; i += batch) await Promise.all(ids.slice(i, i + batch).map((id, j) => step(id, i + j)));
}
const ids = (prefix: string) => Array.from({ length: MANY }, (_, i) => `${prefix}${i}`);

describe('MemorySessionStore: is a deleted id a task session? Its records at the delete say', () => {
  it('a conversation taking the id of a task removed with its own conversation is refused late task saves once deleted', () => {
    const store = new MemorySessionStore();
    store.saveTaskInfo(task('C', 'A')); // a task of A, id C
    store.delete('A'); // A goes, and its tasks with it
    store.append('C', hello); // a new conversation takes the id C
    store.delete('C');
    expect(() => store.saveTaskInfo(task('late', 'C'))).toThrow(expect.objectContaining(refusedFor('C')));
    expect(store.loadTaskInfo('late')).toBeUndefined();
  });

  it('long-running ephemeral tasks deleted after 10,001 saves of kept conversations\' tasks do not push a deleted conversation out', () => {
    const store = new MemorySessionStore({ maxTaskSessions: 100_000 });
    store.append('A', hello);
    store.delete('A');
    const longs = ids('long');
    for (const id of longs) store.saveTaskInfo(task(id, 'e'));
    // Kept conversations' tasks, never deleted by id, saved while the ephemeral run goes on.
    for (const [i, id] of ids('kept').entries()) store.saveTaskInfo(task(id, `conv${i % 50}`));
    for (const id of longs) store.delete(id); // the ephemeral run ends
    expect(() => store.saveTaskInfo(task('late', 'A'))).toThrow(expect.objectContaining(refusedFor('A')));
    expect(store.loadTaskInfo('late')).toBeUndefined();
  });
});

describe('FileSessionStore: is a deleted id a task session? Its task file at the delete says', () => {
  const ws = workspaceHomePerTest();

  it('a conversation taking the id of a task removed with its own conversation is refused late task saves once deleted', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: 'k' });
    await store.append('A', hello);
    await store.saveTaskInfo(task('C', 'A'));
    await store.delete('A');
    expect(await store.loadTaskInfo('C')).toBeUndefined(); // removed with A
    await store.append('C', hello);
    await store.delete('C');
    await expect(store.saveTaskInfo(task('late', 'C'))).rejects.toMatchObject(refusedFor('C'));
    expect(await store.loadTaskInfo('late')).toBeUndefined();
  });

  it('a task deleted while its conversation\'s delete is still on the way stays refused as an owner', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: 'k' });
    await store.append('A', hello);
    await store.saveTaskInfo(task('C', 'A'));
    // Asked together: C's turn may find C's task file before A's delete reaches it, yet C went with A.
    const deletes = [store.delete('A'), store.append('C', hello).then(() => store.delete('C'))];
    await Promise.all(deletes);
    await expect(store.saveTaskInfo(task('late', 'C'))).rejects.toMatchObject(refusedFor('C'));
  });

  it('long-running ephemeral tasks deleted after 10,001 saves of kept conversations\' tasks do not push a deleted conversation out', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: 'k' });
    await store.append('A', hello);
    await store.delete('A');
    const longs = ids('long');
    await inBatches(longs, (id) => store.saveTaskInfo(task(id, 'e')));
    await inBatches(ids('kept'), (id, i) => store.saveTaskInfo(task(id, `conv${i % 50}`)));
    await inBatches(longs, (id) => store.delete(id));
    await expect(store.saveTaskInfo(task('late', 'A'))).rejects.toMatchObject(refusedFor('A'));
    expect(await store.loadTaskInfo('late')).toBeUndefined();
  }, 180_000);
});
