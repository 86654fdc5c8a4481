/**
 * Property: any edit of a sealed session file by someone without the key, but removing lines
 * from its end (which seals cannot tell from a crash), is refused on load. Edits: two lines
 * swapped, a line (not the last) removed, a line repeated elsewhere, a line of another
 * session put in its place, a message's text changed.
 */
import fc from 'fast-check';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

const N = 6;
let ws: TestWorkspace;
let store: FileSessionStore;
let mine: string[];
let theirs: string[];
const file = (): string => join(ws.dir, '.rxharness', 'sessions', 'notes.jsonl');
const message = (i: number, who: string): ChatMessage => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `${who} ${i}` });
const lines = async (sessionId: string): Promise<string[]> => (await readFile(join(ws.dir, '.rxharness', 'sessions', `${sessionId}.jsonl`), 'utf8')).split('\n').slice(0, -1);

beforeAll(async () => {
  ws = await makeWorkspace();
  store = new FileSessionStore(ws.dir, { grantKey: 'the user key' });
  await store.append('notes', Array.from({ length: N }, (_, i) => message(i, 'mine')));
  await store.append('other', Array.from({ length: N }, (_, i) => message(i, 'theirs')));
  [mine, theirs] = [await lines('notes'), await lines('other')];
});
afterAll(() => ws.cleanup());

type Edit = (l: string[]) => string[];
const index = fc.integer({ min: 0, max: N - 1 });
const edits: fc.Arbitrary<Edit> = fc.oneof(
  fc.tuple(index, index).filter(([i, j]) => i !== j).map(([i, j]): Edit => (l) => l.map((x, k) => (k === i ? l[j]! : k === j ? l[i]! : x))),
  fc.integer({ min: 0, max: N - 2 }).map((i): Edit => (l) => l.filter((_, k) => k !== i)),
  fc.tuple(index, fc.integer({ min: 0, max: N })).map(([i, at]): Edit => (l) => [...l.slice(0, at), l[i]!, ...l.slice(at)]),
  index.map((i): Edit => (l) => l.map((x, k) => (k === i ? theirs[i]! : x))),
  index.map((i): Edit => (l) => l.map((x, k) => (k === i ? x.replace(`"mine ${i}"`, `"mine ${i}!"`) : x))),
);

describe('FileSessionStore sealed history under random edits', () => {
  it('every edit but a cut end is refused with UnsealedSessionError', async () => {
    expect(await store.load('notes')).toHaveLength(N);
    await fc.assert(
      fc.asyncProperty(edits, async (edit) => {
        const edited = edit(mine);
        expect(edited).not.toEqual(mine);
        await writeFile(file(), edited.map((l) => `${l}\n`).join(''));
        await expect(store.load('notes')).rejects.toMatchObject({ name: 'UnsealedSessionError', file: file() });
      }),
      { numRuns: 60 },
    );
  });
});
