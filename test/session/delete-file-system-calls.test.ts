/**
 * What a delete costs in file-system calls when the session has no files (what most of a
 * conversation's repeated deletes find): its files' way checked once for all of them, no
 * task file opened when none is there, nothing removed that is not there, and the lifetime
 * ended through the store's one seal. It made 41 calls (48 through a link on the way) before:
 * each of the 5 files' way walked alone, the missing task file opened, 5 removals of nothing;
 * then 13 (15), the scan for its tasks walking the folder's way again; 10 (11) now, the way
 * walked once. The bounds are those counts: past them, a call repeated again per file or per delete.
 */
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';
import { fsCallsOf } from './fs-call-count.js';

const ws = workspaceHomePerTest();
const DELETES = 20;

/** The calls per delete of `talk`, which has no files, over {@link DELETES} deletes (one before, uncounted: the key read, the folder made). */
async function callsPerDelete(store: FileSessionStore): Promise<number> {
  await store.append('warm', [{ role: 'user', content: 'hi' }]);
  await store.delete('talk');
  const { calls } = await fsCallsOf(async () => {
    for (let i = 0; i < DELETES; i++) await store.delete('talk');
  });
  expect(calls.length).toBeGreaterThan(0); // the counting itself works: a delete checks its folder's way
  return calls.length / DELETES;
}

describe('a delete of a session with no files', () => {
  it('makes at most 10 file-system calls with a key given in code, 11 through a link on the way', async () => {
    expect(await callsPerDelete(new FileSessionStore(ws.dir, { grantKey: 'k' }))).toBeLessThanOrEqual(10);
    await mkdir(join(ws.dir, 'elsewhere'));
    await symlink(join(ws.dir, 'elsewhere'), join(ws.dir, 'linked'));
    expect(await callsPerDelete(new FileSessionStore(ws.dir, { grantKey: 'k', dir: join(ws.dir, 'linked', 'sessions') }))).toBeLessThanOrEqual(11);
  });

  it('makes at most 13 through the key file in the home folder (its lifetime file read and written)', async () => {
    expect(await callsPerDelete(new FileSessionStore(ws.dir, { home: ws.home }))).toBeLessThanOrEqual(13);
  });

  it('ends the lifetime through the store\'s own seal: the delete reads the key the store then keeps grants with', async () => {
    const store = new FileSessionStore(ws.dir, { home: ws.home });
    expect(store.keepsGrants).toBe(false);
    await store.delete('talk');
    expect(store.keepsGrants).toBe(true);
  });
});
