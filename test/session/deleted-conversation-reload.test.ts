/**
 * A deleted conversation's lines read again (put back after the delete, or read by another
 * store or process while the delete is under way: its lifetime ends before its files go) are
 * refused as a deleted conversation's, not as "not sealed" with `--trust-session` advice,
 * and `trustUnsealed` does not seal them: that would bring the deleted conversation back.
 * Its task files put back name their owner no more: every task file's seal binds the
 * lifetimes of its owner and of its task.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import type { TaskSessionInfo } from '../../src/session/session-store.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();
const hi = [{ role: 'user' as const, content: 'hi' }];
const t1: TaskSessionInfo = { taskId: 't1', agentName: 'alpha', description: 'd', ownerSessionId: 'talk' };
const deletedRefusal = expect.objectContaining({ name: 'UnsealedSessionError', what: 'deleted', message: expect.stringMatching(/holds lines of a deleted conversation/) });

/** The texts of the folder's files whose names start with `prefix`, and a function putting them back as they were. */
async function keepAside(store: FileSessionStore, prefix: string): Promise<() => Promise<void>> {
  const names = (await readdir(store.dir)).filter((name) => name.startsWith(prefix));
  const kept = await Promise.all(names.map(async (name) => [name, await readFile(join(store.dir, name), 'utf8')] as const));
  return async () => {
    for (const [name, text] of kept) await writeFile(join(store.dir, name), text);
  };
}

describe.each([
  ['the key file in the home folder', (options = {}) => new FileSessionStore(ws.dir, { home: ws.home, ...options })],
  ['a key given in code', (options = {}) => new FileSessionStore(ws.dir, { grantKey: 'k', ...options })],
] as const)('with %s', (_name, make: (options?: { trustUnsealed?: string[] }) => FileSessionStore) => {
  it('lines put back after the delete (as another store reads them mid-delete) are refused as a deleted conversation\'s, advising no --trust-session', async () => {
    const store = make();
    await store.append('talk', hi);
    const putBack = await keepAside(store, 'talk');
    await store.delete('talk');
    await putBack();
    const refused = make().load('talk');
    await expect(refused).rejects.toEqual(deletedRefusal);
    await expect(refused).rejects.toThrow(/delete of the session is under way/);
    await expect(refused).rejects.not.toThrow(/continue it once with --trust-session/);
    // Lines never sealed by the store, in that conversation deleted before, are unsealed as ever.
    await writeFile(join(store.dir, 'talk.jsonl'), `${JSON.stringify({ role: 'user', content: 'planted', mac: 'a'.repeat(64) })}\n`);
    await expect(make().load('talk')).rejects.toMatchObject({ name: 'UnsealedSessionError', what: 'history' });
  });

  it('trustUnsealed does not seal them: refused the same, the file left as it was', async () => {
    const store = make();
    await store.append('talk', hi);
    await store.replace('talk', [...hi, { role: 'assistant', content: 'compacted' }]); // a mark sealed too
    const putBack = await keepAside(store, 'talk');
    const file = join(store.dir, 'talk.jsonl');
    const before = await readFile(file, 'utf8');
    await store.delete('talk');
    await putBack();
    await expect(make({ trustUnsealed: ['talk'] }).load('talk')).rejects.toEqual(deletedRefusal);
    expect(await readFile(file, 'utf8')).toBe(before);
    await expect(make().load('talk')).rejects.toEqual(deletedRefusal);
  });

  it('lines of a lifetime ended two deletes ago are refused the same', async () => {
    const store = make();
    await store.append('talk', hi);
    const putBack = await keepAside(store, 'talk');
    await store.delete('talk');
    await store.append('talk', [{ role: 'user', content: 'second' }]);
    await store.delete('talk');
    await putBack();
    await expect(make({ trustUnsealed: ['talk'] }).load('talk')).rejects.toEqual(deletedRefusal);
  });

  it('a task file put back after its conversation\'s delete is refused; the new conversation\'s own tasks go with its next delete', async () => {
    const store = make();
    await store.append('talk', hi);
    await store.saveTaskInfo(t1);
    const putBack = await keepAside(store, 't1.task');
    await store.delete('talk');
    await putBack();
    const fresh = make();
    await fresh.append('talk', [{ role: 'user', content: 'a new conversation' }]);
    await expect(fresh.loadTaskInfo('t1')).rejects.toMatchObject({ name: 'UnsealedSessionError', what: 'task' });
    // The new conversation's own task, sealed for its lifetime, is found and removed by its next delete.
    await fresh.saveTaskInfo({ ...t1, taskId: 't2' });
    await fresh.append('t2', hi);
    expect(await make().loadTaskInfo('t2')).toEqual({ ...t1, taskId: 't2' });
    await make().delete('talk');
    expect(await make().loadTaskInfo('t2')).toBeUndefined();
    expect((await readdir(store.dir)).filter((name) => name.startsWith('t2'))).toEqual([]);
  });

  it('a task file put back after its own session\'s delete is refused', async () => {
    const store = make();
    await store.append('talk', hi);
    await store.saveTaskInfo(t1);
    const putBack = await keepAside(store, 't1.task');
    await store.delete('t1'); // an ephemeral run's end
    await putBack();
    await expect(make().loadTaskInfo('t1')).rejects.toMatchObject({ name: 'UnsealedSessionError', what: 'task' });
  });
});
