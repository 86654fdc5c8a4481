import { mkdir, readdir, readFile, rm, rmdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const user = (content: string): ChatMessage => ({ role: 'user', content });
const sessionsDir = (): string => join(ws.dir, '.rxharness', 'sessions');
/** A message as its line holds it: with its seal (see history-seal.ts). */
const sealed = (m: ChatMessage): unknown => ({ ...m, mac: expect.stringMatching(/^[0-9a-f]{64}$/) });

const CONVERSATION: ChatMessage[] = [
  user('find the TODOs'),
  { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'grep', arguments: '{"pattern":"TODO"}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: 'src/a.ts:3: // TODO\nwith "quotes", a tab\t and ünïcødé' },
  { role: 'assistant', content: 'One TODO, in src/a.ts.' },
];

describe('FileSessionStore', () => {
  it('round-trips messages through one JSON line each under .rxharness/sessions/', async () => {
    const store = new FileSessionStore(ws.dir, { home: ws.home });
    expect(store.dir).toBe(sessionsDir());
    await store.append('s1', CONVERSATION.slice(0, 1));
    await store.append('s1', CONVERSATION.slice(1));
    expect(await store.load('s1')).toEqual(CONVERSATION);
    expect(await new FileSessionStore(ws.dir, { home: ws.home }).load('s1')).toEqual(CONVERSATION);
    const lines = (await readFile(join(sessionsDir(), 's1.jsonl'), 'utf8')).split('\n');
    expect(lines).toHaveLength(CONVERSATION.length + 1);
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((l) => JSON.parse(l) as unknown)).toEqual(CONVERSATION.map(sealed));
  });

  it('loads an unknown session as empty, and writes nothing for it', async () => {
    expect(await new FileSessionStore(ws.dir, { home: ws.home }).load('nobody')).toEqual([]);
    await expect(readdir(sessionsDir())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps the order of appends made without waiting, and a load waits for the appends before it', async () => {
    const store = new FileSessionStore(ws.dir, { home: ws.home });
    const writes = Array.from({ length: 60 }, (_, i) => store.append(i % 3 === 0 ? 'a' : 'b', [user(`m${i}`)]));
    const loaded = store.load('a');
    expect((await loaded).map((m) => m.content)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i * 3}`));
    await Promise.all(writes);
    expect((await store.load('b')).map((m) => m.content)).toEqual(
      Array.from({ length: 60 }, (_, i) => i).filter((i) => i % 3 !== 0).map((i) => `m${i}`),
    );
  });

  it('after a crash cut the last line: loads the earlier messages, and the next append starts a fresh line', async () => {
    await new FileSessionStore(ws.dir, { home: ws.home }).append('s1', [user('one'), user('two'), user('three')]);
    const file = join(sessionsDir(), 's1.jsonl');
    const size = (await readFile(file)).length;
    const third = (await readFile(file, 'utf8')).split('\n')[2]!;
    await truncate(file, size - third.length - 1 + '{"role":"user","content":"th'.length); // '…"three",…}\n' loses its end mid-line

    const restarted = new FileSessionStore(ws.dir, { home: ws.home });
    expect(await restarted.load('s1')).toEqual([user('one'), user('two')]);
    await restarted.append('s1', [user('four')]);
    await restarted.append('s1', [user('five')]);
    expect(await restarted.load('s1')).toEqual([user('one'), user('two'), user('four'), user('five')]);
    expect(await new FileSessionStore(ws.dir, { home: ws.home }).load('s1')).toEqual([user('one'), user('two'), user('four'), user('five')]);
    const lines = (await readFile(file, 'utf8')).split('\n');
    expect(lines[2]).toBe('{"role":"user","content":"th');
    expect(lines.slice(3, -1).map((l) => JSON.parse(l) as unknown)).toEqual([user('four'), user('five')].map(sealed));
    expect(lines.at(-1)).toBe('');
  });

  it('after a failed write in the same process, the next append starts a fresh line', async () => {
    const store = new FileSessionStore(ws.dir, { home: ws.home });
    await store.append('s1', [user('one')]);
    const file = join(sessionsDir(), 's1.jsonl');
    const one = await readFile(file, 'utf8'); // its sealed line
    // The file is briefly a folder, so the append fails; then the file is back with a cut
    // line, as a write stopped mid-line (a full disk) leaves it.
    await rm(file);
    await mkdir(file);
    await expect(store.append('s1', [user('two')])).rejects.toMatchObject({ code: 'NOT_REGULAR_FILE' });
    await rmdir(file);
    await writeFile(file, `${one}{"role":"user","con`);

    await store.append('s1', [user('three')]);
    expect(await store.load('s1')).toEqual([user('one'), user('three')]);
  });

  it('keeps a whole last line that lost only its newline, and skips garbage lines anywhere', async () => {
    const file = join(sessionsDir(), 's1.jsonl');
    await new FileSessionStore(ws.dir, { home: ws.home }).append('s1', [user('one'), user('two')]);
    const [one, two] = (await readFile(file, 'utf8')).split('\n'); // their sealed lines
    await writeFile(file, `${one}\nnot json\n42\n{"no":"role"}\n${two}`);
    const store = new FileSessionStore(ws.dir, { home: ws.home });
    expect(await store.load('s1')).toEqual([user('one'), user('two')]);
    await store.append('s1', [user('three')]);
    expect(await store.load('s1')).toEqual([user('one'), user('two'), user('three')]);
  });

  it('maps ids with odd characters to distinct, safe file names inside its folder', async () => {
    const store = new FileSessionStore(ws.dir, { home: ws.home });
    const ids = ['a/b', 'a b', 'ünïcødé', '../escape', '..', '.hidden', 'a\\b', 'plain-id_1', 'x.y', 'CON:', 'Notes', 'notes', 'NOTES', 'con', 'nul.log', 'com1', 'console'];
    for (const id of ids) await store.append(id, [user(`for ${id}`)]);
    for (const id of ids) expect(await store.load(id)).toEqual([user(`for ${id}`)]);
    // Each session: its messages and its summary (for list()).
    const files = (await readdir(sessionsDir())).filter((name) => !name.endsWith('.summary.json'));
    expect(files).toHaveLength(ids.length);
    expect((await readdir(sessionsDir())).filter((name) => name.endsWith('.summary.json'))).toHaveLength(ids.length);
    for (const name of files) expect(name).toMatch(/^[a-z0-9_~-][a-z0-9_.-]*\.jsonl$/);
    // Distinct even where the file system ignores case.
    expect(new Set(files.map((name) => name.toLowerCase())).size).toBe(ids.length);
    expect(files).toContain('plain-id_1.jsonl');
    expect(files).toContain('x.y.jsonl');
    expect(files).toContain('console.jsonl');
    // Windows device names are encoded, whatever follows the dot.
    expect(files.filter((f) => /^(con|nul|com1)\./.test(f))).toEqual([]);
    // Nothing escaped the sessions folder.
    expect((await readdir(join(ws.dir, '.rxharness'))).sort()).toEqual(['sessions']);
    expect((await readdir(ws.dir)).sort()).toEqual(['.rxharness']);
  });

  it('stores sessions with very long ids under short names (by hash), apart from each other', async () => {
    const store = new FileSessionStore(ws.dir, { home: ws.home });
    const long = 'x'.repeat(300);
    const longOdd = 'ü/'.repeat(200);
    await store.append(long, [user('long')]);
    await store.append(`${long}y`, [user('longer')]);
    await store.append(longOdd, [user('odd')]);
    await store.saveTaskInfo({ taskId: long, agentName: 'alpha', description: 'd', ownerSessionId: 's' });
    expect(await store.load(long)).toEqual([user('long')]);
    expect(await store.load(`${long}y`)).toEqual([user('longer')]);
    expect(await store.load(longOdd)).toEqual([user('odd')]);
    expect(await store.loadTaskInfo(long)).toMatchObject({ taskId: long });
    for (const name of await readdir(sessionsDir())) expect(name.length).toBeLessThan(100);
  });

  it('stores task info for resume: a round trip, odd ids, and undefined for a missing one', async () => {
    const store = new FileSessionStore(ws.dir, { home: ws.home });
    const info = { taskId: 'task_1', agentName: 'alpha', description: 'a "quoted" job', ownerSessionId: 'owner/1' };
    await store.saveTaskInfo(info);
    await store.saveTaskInfo({ ...info, taskId: 'odd id/ü' });
    expect(await new FileSessionStore(ws.dir, { home: ws.home }).loadTaskInfo('task_1')).toEqual(info);
    expect(await store.loadTaskInfo('odd id/ü')).toEqual({ ...info, taskId: 'odd id/ü' });
    expect(await store.loadTaskInfo('task_missing')).toBeUndefined();
    // The task file does not count as a session, and no temporary file is left behind.
    expect(await store.load('task_1')).toEqual([]);
    expect((await readdir(sessionsDir())).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('can live in another folder (options.dir)', async () => {
    const dir = join(ws.dir, 'elsewhere');
    const store = new FileSessionStore('/ignored', { dir, home: ws.home });
    await store.append('s', [user('x')]);
    expect((await readdir(dir)).sort()).toEqual(['s.jsonl', 's.summary.json']);
  });
});
