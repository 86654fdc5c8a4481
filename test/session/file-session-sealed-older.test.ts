/**
 * Sessions written by the rxharness before seals held places (each line sealed over the
 * folder, the session and the message only, `rxharness-message-1`; a compaction mark without
 * a seal) still load, and go on: the lines they gain are sealed with their places, after the
 * older ones, so removing an older line, repeating one after the newer lines, or editing the
 * older mark's count once newer lines follow it, is refused.
 */
import { createHmac } from 'node:crypto';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

const KEY = 'the user key, kept outside the workspace';
let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
  await mkdir(dir(), { recursive: true });
});
afterEach(() => ws.cleanup());

const dir = (): string => join(ws.dir, '.rxharness', 'sessions');
const at = (name: string): string => join(dir(), name);
const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });
const store = (): FileSessionStore => new FileSessionStore(ws.dir, { grantKey: KEY });
const linesOf = async (name: string): Promise<string[]> => (await readFile(at(name), 'utf8')).split('\n').slice(0, -1);
const write = (name: string, lines: readonly string[]): Promise<void> => writeFile(at(name), lines.map((l) => `${l}\n`).join(''));
/** A line as the earlier version sealed it: no place in its seal. */
const older = async (sessionId: string, m: ChatMessage): Promise<string> =>
  JSON.stringify({ ...m, mac: createHmac('sha256', KEY).update(JSON.stringify(['rxharness-message-1', await realpath(dir()), sessionId, m])).digest('hex') });
const NOT_SEALED = { name: 'UnsealedSessionError', code: 'SESSION_NOT_SEALED' };

describe('FileSessionStore with history sealed before seals held places', () => {
  it('loads, and the lines appended after the older ones load with them', async () => {
    await write('notes.jsonl', [await older('notes', user('one')), await older('notes', assistant('two'))]);
    const sessions = store();
    expect(await sessions.load('notes')).toEqual([user('one'), assistant('two')]);
    await sessions.append('notes', [user('three')]);
    expect(await store().load('notes')).toEqual([user('one'), assistant('two'), user('three')]);
  });

  it('an older line removed, or repeated after a newer one, is refused; an older line of another session too', async () => {
    const one = await older('notes', user('one'));
    const two = await older('notes', assistant('two'));
    await write('notes.jsonl', [one, two]);
    await store().append('notes', [user('three')]);
    const [, , three] = await linesOf('notes.jsonl');
    await write('notes.jsonl', [two, three!]);
    await expect(store().load('notes')).rejects.toMatchObject({ ...NOT_SEALED, lines: [2] });
    await write('notes.jsonl', [one, two, three!, two]);
    await expect(store().load('notes')).rejects.toMatchObject({ ...NOT_SEALED, lines: [4] });
    await write('notes.jsonl', [await older('other', user('one')), two, three!]);
    await expect(store().load('notes')).rejects.toMatchObject({ ...NOT_SEALED, lines: [1] });
  });

  it("an older compacted session (a mark without a seal) loads and goes on; its mark's count edited then is refused", async () => {
    await write('notes.jsonl', ['{"archived":1}', await older('notes', user('summary')), await older('notes', assistant('three'))]);
    await write('notes.archive.jsonl', [await older('notes', user('one')), await older('notes', assistant('two'))]);
    const sessions = store();
    expect(await sessions.loadArchive('notes')).toEqual([user('one'), assistant('two'), assistant('three')]);
    await sessions.append('notes', [user('four')]);
    expect(await store().loadArchive('notes')).toEqual([user('one'), assistant('two'), assistant('three'), user('four')]);
    const [, ...rest] = await linesOf('notes.jsonl');
    await write('notes.jsonl', ['{"archived":3}', ...rest]);
    await expect(store().loadArchive('notes')).rejects.toMatchObject({ ...NOT_SEALED, lines: [4] });
  });
});
