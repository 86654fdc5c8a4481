import { createHash } from 'node:crypto';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';
import { assistant, user } from './session-workspace-kit.js';

// The line before each archived block must not make a compaction leave messages out: not when
// two compactions archive equal messages, nor when one is planted or moved.
const ws = workspaceHomePerTest();
const file = (name: string): string => join(ws.dir, '.rxharness', 'sessions', name);
const SUMMARY = [user('summary'), assistant('ok')];
const TURN = [user('repeat'), assistant('same')];
const contents = async (s: FileSessionStore): Promise<string[]> => (await s.loadArchive('s1')).map((m) => String(m.content));
const keyed = (): FileSessionStore => new FileSessionStore(ws.dir, { grantKey: 'the user key, kept outside the workspace' });
/** The key would lie in the workspace (home is the workspace): refused, the store seals nothing. */
const keyless = (): FileSessionStore => {
  vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  return new FileSessionStore(ws.dir, { home: ws.dir });
};
const linesOf = async (name: string): Promise<string[]> => (await readFile(file(name), 'utf8')).trimEnd().split('\n');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('archive block lines', () => {
  it('without a key, two compactions of equal messages archive both, and one done again after a crash adds nothing twice', async () => {
    const store = keyless();
    await store.append('s1', SUMMARY);
    await store.replace('s1', SUMMARY);
    for (let i = 0; i < 2; i++) {
      await store.append('s1', TURN);
      await store.replace('s1', SUMMARY);
    }
    expect((await contents(keyless())).filter((c) => c === 'repeat')).toHaveLength(2);
    // The same turn a third time, the compaction cut by a crash before the messages file, then done again.
    await store.append('s1', TURN);
    await copyFile(file('s1.jsonl'), join(ws.dir, 'before.jsonl'));
    await store.replace('s1', SUMMARY);
    await copyFile(join(ws.dir, 'before.jsonl'), file('s1.jsonl'));
    await keyless().replace('s1', SUMMARY);
    expect((await contents(keyless())).filter((c) => c === 'repeat')).toHaveLength(3);
  });

  it('a line planted before the archive\'s last messages, naming the next block, leaves nothing out', async () => {
    await keyed().append('s1', TURN);
    await keyed().replace('s1', SUMMARY);
    await keyed().append('s1', TURN);
    // The workspace is readable: the messages file's mark gives the generation, the block its hash.
    const mark = JSON.parse((await linesOf('s1.jsonl'))[0]!) as { archived: number; generation: string };
    const sha256 = createHash('sha256').update(JSON.stringify(TURN)).digest('hex');
    const lines = await linesOf('s1.archive.jsonl');
    const planted = JSON.stringify({ archiveBlock: { generation: mark.generation, archived: mark.archived, count: 2, sha256, at: 0 } });
    await writeFile(file('s1.archive.jsonl'), `${[lines[0], planted, ...lines.slice(1)].join('\n')}\n`);
    await keyed().replace('s1', SUMMARY);
    expect((await contents(keyed())).filter((c) => c === 'repeat')).toHaveLength(2);
  });

  it('a block line moved from where it was written does not count', async () => {
    // Without a key nothing is sealed, so only where the line sits tells it was moved.
    await keyless().append('s1', TURN);
    await copyFile(file('s1.jsonl'), join(ws.dir, 'before.jsonl'));
    await keyless().replace('s1', SUMMARY);
    await copyFile(join(ws.dir, 'before.jsonl'), file('s1.jsonl'));
    const lines = await linesOf('s1.archive.jsonl');
    await writeFile(file('s1.archive.jsonl'), `${[JSON.stringify(user('earlier')), ...lines].join('\n')}\n`);
    await keyless().replace('s1', SUMMARY);
    expect(await contents(keyless())).toEqual(['earlier', 'repeat', 'same', 'repeat', 'same']);
  });
});
