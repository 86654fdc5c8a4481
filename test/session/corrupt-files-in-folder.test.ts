/**
 * Corrupt files in a `FileSessionStore` folder (a cut write of another tool, a bad copy, a
 * planted file) beside a conversation and its task: what the store reads of them fails
 * clearly or passes them over, the conversation still loads, lists and deletes, and the store
 * neither removes nor rewrites a file it did not write (nothing lost: the user can look at them).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();

const CORRUPT: Record<string, string> = {
  'other.task.json': '{"taskId": "other", "ownerSess',
  'bare.task.json': JSON.stringify({ taskId: 'bare', agentName: 'beta', description: 'look', ownerSessionId: 'notes' }),
  'other.grants.jsonl': 'not json\n\u0000\u0001',
  'other.jsonl': '{"role":"user","content":"no seal"}\n',
};

describe('FileSessionStore with corrupt files in its folder', () => {
  it('fails clearly on what it cannot trust, serves the conversation, and leaves the corrupt files as they were', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: 'k' });
    await store.append('notes', [{ role: 'user', content: 'hello' }]);
    await store.saveTaskInfo({ taskId: 't1', agentName: 'beta', description: 'look', ownerSessionId: 'notes' });
    for (const [name, text] of Object.entries(CORRUPT)) await writeFile(join(store.dir, name), text);

    await expect(store.load('other')).rejects.toMatchObject({ name: 'UnsealedSessionError' });
    // A task file naming the conversation without the store's seal is no task of it: refused, never taken as its.
    await expect(store.loadTaskInfo('bare')).rejects.toMatchObject({ name: 'UnsealedSessionError' });
    expect(await store.loadGrants('other')).toEqual([]);
    expect(await store.load('notes')).toEqual([{ role: 'user', content: 'hello' }]);
    expect((await store.list()).map((s) => s.sessionId)).toContain('notes');

    await store.delete('notes');
    expect(await store.loadTaskInfo('t1')).toBeUndefined();
    const left = (await readdir(store.dir)).filter((name) => !name.startsWith('other.summary'));
    expect(left.sort()).toEqual(Object.keys(CORRUPT).sort());
    for (const [name, text] of Object.entries(CORRUPT)) expect(await readFile(join(store.dir, name), 'utf8')).toBe(text);
  });
});
