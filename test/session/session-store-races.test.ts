/**
 * Writes and a delete of one session asked at once, neither awaited before the other (a
 * `Promise.all`), in both orders: each store acts in the order they were asked. A write
 * asked before the delete is gone after it (its "always" grant above all: left, it would
 * approve calls in a later conversation of the id); a write asked after it makes the session anew.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();

const grant = { toolName: 'bash', subject: 'rm -rf build' };
const hello = [{ role: 'user' as const, content: 'hello' }];
const files = async (): Promise<string[]> => (await readdir(join(ws.dir, '.rxharness', 'sessions')).catch(() => [])).sort();

// The grant key read from its file in the home folder, as by default: signing waits for it.
const stores = [
  ['FileSessionStore', () => new FileSessionStore(ws.dir, { home: ws.home })],
  ['MemorySessionStore', () => new MemorySessionStore()],
] as const;

describe.each(stores)('%s: a write and a delete asked at once', (name, make) => {
  it('drops a grant asked before the delete, keeps one asked after it', async () => {
    const store: SessionStore = make();
    await Promise.all([store.saveGrant!('before', grant), store.delete!('before')]);
    expect(await store.loadGrants!('before')).toEqual([]);
    await Promise.all([store.delete!('after'), store.saveGrant!('after', grant)]);
    expect(await store.loadGrants!('after')).toEqual([grant]);
    // A fresh store reads what is on disk, not what this one remembers.
    if (name === 'FileSessionStore') expect(await make().loadGrants!('before')).toEqual([]);
  });

  it('drops messages asked before the delete, keeps those asked after it, and lists only those', async () => {
    const store: SessionStore = make();
    await Promise.all([store.append('before', hello), store.delete!('before')]);
    await Promise.all([store.delete!('after'), store.append('after', hello)]);
    expect(await store.load('before')).toEqual([]);
    expect(await store.load('after')).toEqual(hello);
    expect((await store.list!()).map((s) => s.sessionId)).toEqual(['after']);
    if (name === 'FileSessionStore') expect((await files()).filter((f) => f.startsWith('before'))).toEqual([]);
  });
});
