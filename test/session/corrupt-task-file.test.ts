/**
 * A task file that holds no task info (empty, cut, corrupt: a disk fault, another tool's
 * write, a bad copy; the store's own writes are whole, renamed into place) is no unknown
 * task: reading it for a resume fails naming the file and what to do, leaves it as it is
 * (nothing lost), and the conversation beside it, and its other tasks, still load, list and
 * delete.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const task = (taskId: string) => ({ taskId, agentName: 'beta', description: 'look', ownerSessionId: 'notes' });

/** What is left of a sealed task file `whole`, by how it went bad. */
const BAD: Record<string, (whole: string) => string> = {
  empty: () => '',
  cut: (whole) => whole.slice(0, Math.floor(whole.length / 2)),
  corrupt: () => '\u0000\u0000\u0000\u0000',
  'no task info': () => '{}',
};

describe('FileSessionStore: a task file holding no task info', () => {
  it.each(Object.keys(BAD))('%s: loading it fails naming the file and what to do, and leaves it as it is', async (how) => {
    const store = new FileSessionStore(ws.dir, { grantKey: 'k' });
    await store.append('notes', [{ role: 'user', content: 'hello' }]);
    await store.saveTaskInfo(task('t1'));
    await store.saveTaskInfo(task('t2'));
    const file = join(store.dir, 't2.task.json');
    const bad = BAD[how]!(await readFile(file, 'utf8'));
    await writeFile(file, bad);

    const error: unknown = await store.loadTaskInfo('t2').then(
      () => 'loaded',
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'UnsealedSessionError', code: 'SESSION_NOT_SEALED', sessionId: 't2', file, what: 'task' });
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain('Start the task anew');
    expect(await readFile(file, 'utf8')).toBe(bad);
    // A new store (after a restart) says the same.
    await expect(new FileSessionStore(ws.dir, { grantKey: 'k' }).loadTaskInfo('t2')).rejects.toMatchObject({ file });
  });

  it('leaves the conversation and its other tasks working: load, list, resume info, and a delete that removes them', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: 'k' });
    await store.append('notes', [{ role: 'user', content: 'hello' }]);
    await store.saveTaskInfo(task('t1'));
    await store.saveTaskInfo(task('t2'));
    const file = join(store.dir, 't2.task.json');
    await writeFile(file, '');

    expect(await store.loadTaskInfo('t1')).toEqual(task('t1'));
    expect(await store.load('notes')).toEqual([{ role: 'user', content: 'hello' }]);
    expect((await store.list()).map((s) => s.sessionId)).toEqual(['notes']);
    expect(await store.loadTaskInfo('t_never_saved')).toBeUndefined();

    await store.delete('notes');
    expect(await store.load('notes')).toEqual([]);
    expect(await store.loadTaskInfo('t1')).toBeUndefined();
    // Whose it was cannot be read from it: it is left for the user, untouched.
    expect(await readdir(store.dir)).toEqual(['t2.task.json']);
    expect(await readFile(file, 'utf8')).toBe('');
    await expect(store.loadTaskInfo('t2')).rejects.toMatchObject({ name: 'UnsealedSessionError', file });

    // Deleting the task by its id, as the message says, removes it: the id is unknown then.
    await store.delete('t2');
    expect(await store.loadTaskInfo('t2')).toBeUndefined();
  });

  it('a task file that cannot be read fails with the reason, as loading a conversation there does, rather than "unknown"', async () => {
    // The sessions folder is a file: nothing under it can be opened.
    await mkdir(join(ws.dir, '.rxharness'));
    await writeFile(join(ws.dir, '.rxharness', 'sessions'), 'not a folder');
    const store = new FileSessionStore(ws.dir, { grantKey: 'k' });
    await expect(store.load('notes')).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(store.loadTaskInfo('t1')).rejects.toMatchObject({ code: 'ENOTDIR', message: expect.stringContaining('t1.task.json') });
  });
});
