import { appendFile, copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';
import { assistant, user } from './session-workspace-kit.js';

// A compaction appends the archive, then rewrites the messages file. A crash between the two
// leaves the old messages file, and the compaction is done again when the session is next used.
const KEY = 'the user key, kept outside the workspace';
const ws = workspaceHomePerTest();
const store = (): FileSessionStore => new FileSessionStore(ws.dir, { grantKey: KEY });
const file = (name: string): string => join(ws.dir, '.rxharness', 'sessions', name);
const TALK = [user('one'), assistant('two'), user('three'), assistant('four')];
const SUMMARY = [user('summary'), assistant('ok')];
const contents = async (s: FileSessionStore, id = 's1'): Promise<string[]> => (await s.loadArchive(id)).map((m) => String(m.content));
const BLOCK_LINE = '{"archiveBlock":';

/** Appends `talk` to the session, compacts it, then puts back the messages file as a crash left it: not rewritten yet. The archive's text. */
async function compactThenCrash(id = 's1', talk: readonly ChatMessage[] = TALK): Promise<string> {
  await store().append(id, talk);
  const before = join(ws.dir, `${id}.before.jsonl`);
  await copyFile(file(`${id}.jsonl`), before);
  await store().replace(id, SUMMARY);
  await copyFile(before, file(`${id}.jsonl`));
  return readFile(file(`${id}.archive.jsonl`), 'utf8');
}

describe('a compaction done again after a crash between the archive and the messages file', () => {
  it('archives each message once, and a later compaction still archives its own messages', async () => {
    await compactThenCrash();
    const restarted = store();
    await restarted.replace('s1', SUMMARY);
    expect(await contents(restarted)).toEqual(['one', 'two', 'three', 'four']);
    expect(await restarted.load('s1')).toEqual(SUMMARY);
    // The same two messages again, compacted for real: they are new, so archived again.
    await restarted.append('s1', TALK.slice(0, 2));
    await restarted.replace('s1', SUMMARY);
    expect(await contents(restarted)).toEqual(['one', 'two', 'three', 'four', 'one', 'two']);
  });

  it("appends only what a crash cut off the archive's append (its last line cut mid-way)", async () => {
    const archive = (await compactThenCrash()).trimEnd().split('\n');
    // The line naming the block, two messages whole, the third cut in its middle.
    const cut = archive.length - 2;
    await writeFile(file('s1.archive.jsonl'), `${archive.slice(0, cut).join('\n')}\n${archive[cut]!.slice(0, 20)}`);
    const restarted = store();
    await restarted.replace('s1', SUMMARY);
    expect(await contents(restarted)).toEqual(['one', 'two', 'three', 'four']);
  });

  it('garbled or foreign block lines neither throw, nor duplicate, nor make a message be left out', async () => {
    const GARBAGE = '{"archiveBlock":{"generation":7}}\n{"archiveBlock":nonsense\n{"archiveBlock":null}\n{"archiveBlock":{"generation":"","archived":0,"count":"4","sha256":1}}\n';
    await compactThenCrash();
    await appendFile(file('s1.archive.jsonl'), GARBAGE);
    const restarted = store();
    await restarted.replace('s1', SUMMARY);
    expect(await contents(restarted)).toEqual(['one', 'two', 'three', 'four']);
    // The line naming the block kept, its messages gone (planted, or lost): they are all archived again.
    const named = (await compactThenCrash('s2')).split('\n').find((line) => line.startsWith(BLOCK_LINE))!;
    await writeFile(file('s2.archive.jsonl'), `${named}\n${GARBAGE}${named.slice(0, 30)}`);
    await restarted.replace('s2', SUMMARY);
    expect(await contents(restarted, 's2')).toEqual(['one', 'two', 'three', 'four']);
  });

  it('an archive written before block lines (none in it) still loads, and a compaction rerun on it adds nothing twice', async () => {
    await store().append('s1', TALK.slice(0, 2));
    await store().replace('s1', SUMMARY);
    const older = (await readFile(file('s1.archive.jsonl'), 'utf8')).split('\n').filter((line) => !line.startsWith(BLOCK_LINE));
    await writeFile(file('s1.archive.jsonl'), older.join('\n'));
    expect(await contents(store())).toEqual(['one', 'two']);
    await compactThenCrash('s1', TALK.slice(2));
    const restarted = store();
    await restarted.replace('s1', SUMMARY);
    expect(await contents(restarted)).toEqual(['one', 'two', 'three', 'four']);
  });
});
