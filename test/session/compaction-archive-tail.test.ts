import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MAX_SESSION_FILE_BYTES } from '../../src/session/read-whole.js';
import { SessionFileTooLargeError } from '../../src/session/session-file-too-large-error.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';
import { assistant, user } from './session-workspace-kit.js';

// A compaction reads only the archive's tail (its last block line and what follows), so its
// cost does not grow with the whole transcript, and an archive too large to read whole still compacts.
const KEY = 'the user key, kept outside the workspace';
const ws = workspaceHomePerTest();
const store = (): FileSessionStore => new FileSessionStore(ws.dir, { grantKey: KEY });
const file = (name: string): string => join(ws.dir, '.rxharness', 'sessions', name);
const SUMMARY = [user('summary'), assistant('ok')];
const contents = async (s: FileSessionStore): Promise<string[]> => (await s.loadArchive('s1')).map((m) => String(m.content));

describe("a compaction reads the archive's tail only", () => {
  it('an archive past MAX_SESSION_FILE_BYTES (a sparse line of no message before its lines) still compacts, each message sealed at its place', async () => {
    // Two compactions: the last block's line follows messages (as in any archive grown that large).
    await store().append('s1', [user('one'), assistant('two')]);
    await store().replace('s1', SUMMARY);
    await store().append('s1', [user('three')]);
    await store().replace('s1', SUMMARY);
    const archive = await readFile(file('s1.archive.jsonl'));
    // The lines put after a hole of NUL bytes: one line holding no message, so no place either.
    const grown = await open(file('s1.archive.jsonl'), 'w');
    await grown.write(Buffer.concat([Buffer.from('\n'), archive]), 0, archive.length + 1, MAX_SESSION_FILE_BYTES);
    await grown.close();
    const restarted = store();
    await expect(restarted.loadArchive('s1')).rejects.toBeInstanceOf(SessionFileTooLargeError); // a reader still reads it whole
    await restarted.append('s1', [user('four')]);
    await restarted.replace('s1', SUMMARY);
    await restarted.append('s1', [user('five')]);
    await restarted.replace('s1', SUMMARY);
    expect(await restarted.load('s1')).toEqual(SUMMARY);
    // The hole cut off, the archive loads whole: what the compactions appended passes its seals.
    const handle = await open(file('s1.archive.jsonl'), 'r');
    const { size } = await handle.stat();
    const tail = Buffer.alloc(size - MAX_SESSION_FILE_BYTES - 1);
    await handle.read(tail, 0, tail.length, MAX_SESSION_FILE_BYTES + 1);
    await handle.close();
    await writeFile(file('s1.archive.jsonl'), tail);
    expect(await contents(store())).toEqual(['one', 'two', 'three', 'four', 'five']);
  });
});
