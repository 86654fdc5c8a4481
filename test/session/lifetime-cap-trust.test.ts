/**
 * Past the 32 earlier lifetimes a failing history file is checked against, its lines cannot
 * be told apart from a deleted conversation's: refused as such (`what: 'maybe-deleted'`),
 * saying so, and taken by `trustUnsealed` when the user names the session (the key may have
 * changed: a restored home, another machine). Lines proven sealed for an earlier lifetime
 * stay refused, trusted or not.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();
const live = [{ role: 'user' as const, content: 'my live conversation' }];
const byFile = () => new FileSessionStore(ws.dir, { home: ws.home });
const trusting = () => new FileSessionStore(ws.dir, { home: ws.home, trustUnsealed: ['talk'] });

/** "talk" deleted `deletes` times, then written live (sealed for its lifetime). */
async function liveAfterDeletes(deletes: number): Promise<FileSessionStore> {
  const store = byFile();
  for (let i = 0; i < deletes; i++) await store.delete('talk');
  await store.append('talk', live);
  return store;
}

/** The key is replaced (a restored home, another machine): a new one is made at the next use. */
const replaceKey = () => rm(join(ws.home, '.rxharness', 'grant.key'));

describe('a live conversation deleted more than 32 times, its key replaced', () => {
  it('is refused as not told apart from a deleted conversation\'s, saying --trust-session takes it if the key changed', async () => {
    await liveAfterDeletes(33);
    await replaceKey();
    const e = await byFile().load('talk').catch((x: unknown) => x);
    expect(e).toMatchObject({ name: 'UnsealedSessionError', what: 'maybe-deleted', lines: [1] });
    const message = (e as Error).message;
    expect(message).toMatch(/cannot be told apart from a deleted conversation's: the conversation of that id was deleted more than 32 times/);
    expect(message).toMatch(/If your key changed \(a restored home folder, another machine\).*--trust-session/);
    expect(message).not.toMatch(/would not take them/);
  });

  it('is kept by trustUnsealed (--trust-session), sealed for later loads', async () => {
    await liveAfterDeletes(33);
    await replaceKey();
    await expect(trusting().load('talk')).resolves.toEqual(live);
    await expect(byFile().load('talk')).resolves.toEqual(live);
  });
});

describe('lines proven a deleted conversation\'s past 32 deletes', () => {
  it('stay refused with trustUnsealed, and the file is left as it is', async () => {
    const store = await liveAfterDeletes(33);
    const file = join(store.dir, 'talk.jsonl');
    const kept = await readFile(file, 'utf8');
    await store.delete('talk'); // the 34th: the lines kept are lifetime 33's
    await writeFile(file, kept);
    await expect(trusting().load('talk')).rejects.toMatchObject({ name: 'UnsealedSessionError', what: 'deleted' });
    expect(await readFile(file, 'utf8')).toBe(kept);
  });
});
