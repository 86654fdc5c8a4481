/**
 * Every store's `delete` drops the conversation's "always" grants, first: the memory store
 * and the file store (the Redis store: test/backend/redis-session-delete-grants.test.ts).
 * A conversation with nothing but grants loses them too, another conversation keeps its
 * own, and a file store whose delete fails on the way (a folder planted under one of the
 * session's file names) has still dropped them, so a later conversation of the id inherits
 * none of them, whatever the engine's memory holds.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

const grant = { toolName: 'bash', subject: 'git push' };
const hi = [{ role: 'user' as const, content: 'hi' }];

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const stores: readonly [string, () => SessionStore][] = [
  ['MemorySessionStore', () => new MemorySessionStore()],
  ['FileSessionStore', () => new FileSessionStore(ws.dir, { grantKey: 'test grant key' })],
];

describe.each(stores)('%s.delete and "always" grants', (_name, make) => {
  it("drops the conversation's grants, also when it holds nothing else, and no other conversation's", async () => {
    const store = make();
    await store.append('talk', hi);
    await store.saveGrant!('talk', grant);
    await store.saveGrant!('only_grants', grant);
    await store.saveGrant!('kept', grant);
    await store.delete!('talk');
    await store.delete!('only_grants');
    expect(await store.loadGrants!('talk')).toEqual([]);
    expect(await store.loadGrants!('only_grants')).toEqual([]);
    expect(await store.loadGrants!('kept')).toEqual([grant]);
    // A new conversation of the id starts without them.
    await store.append('talk', hi);
    expect(await store.loadGrants!('talk')).toEqual([]);
  });

  it("drops its tasks' sessions with it, and keeps another conversation's", async () => {
    const store = make();
    await store.append('talk', hi);
    await store.saveTaskInfo!({ taskId: 'task_t', agentName: 'a', description: 'd', ownerSessionId: 'talk' });
    await store.append('task_t', hi);
    await store.saveTaskInfo!({ taskId: 'task_o', agentName: 'a', description: 'd', ownerSessionId: 'other' });
    await store.append('task_o', hi);
    await store.delete!('talk');
    expect(await store.load('task_t')).toEqual([]);
    expect(await store.loadTaskInfo!('task_t')).toBeUndefined();
    expect(await store.load('task_o')).toEqual(hi);
  });
});

describe('FileSessionStore.delete failing on the way', () => {
  it('a folder planted under the archive name: the delete fails, naming it, and the grants are already gone', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: 'test grant key' });
    await store.append('notes', hi);
    await store.saveGrant('notes', grant);
    const folder = join(store.dir, 'notes.archive.jsonl');
    await mkdir(folder);
    await writeFile(join(folder, 'kept.txt'), 'planted\n');
    await expect(store.delete('notes')).rejects.toMatchObject({ name: 'NotRegularFileError', file: folder });
    expect(await store.loadGrants('notes')).toEqual([]);
    // Once the folder is removed, as the error says, the delete completes.
    await rm(folder, { recursive: true });
    await store.delete('notes');
    expect(await store.load('notes')).toEqual([]);
  });
});
