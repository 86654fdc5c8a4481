/**
 * A session file too large to be read as text (over the longest string JavaScript holds,
 * some 512 MiB), planted in `.rxharness/sessions/` or grown over an enormous history: reading
 * it whole used to take that much memory, then fail with "Cannot create a string longer than
 * 0x1fffffe8 characters", naming no file. Every use is refused by the file's size first with
 * `SessionFileTooLargeError`, naming the file, its size and what to do; nothing is read or
 * written, and deleting the session removes it. The files are sparse: no disk is filled.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MAX_SESSION_FILE_BYTES } from '../../src/session/read-whole.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

const KEY = 'test grant key';
const HUGE = MAX_SESSION_FILE_BYTES + 1;
let ws: string;
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'rxh-huge-files-'));
  await mkdir(join(ws, '.rxharness', 'sessions'), { recursive: true });
});
afterEach(async () => {
  await rm(ws, { recursive: true, force: true });
});

const at = (name: string): string => join(ws, '.rxharness', 'sessions', name);
const store = (): FileSessionStore => new FileSessionStore(ws, { grantKey: KEY });
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Plants a sparse file of {@link HUGE} bytes at `file`. */
async function plantHuge(file: string): Promise<string> {
  const handle = await open(file, 'w');
  await handle.truncate(HUGE);
  await handle.close();
  return file;
}

/** The clear refusal: names the file and its size, says nothing was read or written and what to do. */
const refusal = (file: string) => ({
  name: 'SessionFileTooLargeError',
  code: 'SESSION_FILE_TOO_LARGE',
  file,
  bytes: HUGE,
  message: expect.stringMatching(new RegExp(`^Refusing to read ${escaped(file)}: it is ${HUGE} bytes, .*Nothing was read or written; move it out of the folder`, 's')),
});

describe('FileSessionStore with a session file too large to read as <id>.jsonl', () => {
  it('refuses load, loadArchive, append and replace by its size, writes nothing, and delete removes it', async () => {
    const file = await plantHuge(at('s.jsonl'));
    const s = store();
    await expect(s.load('s')).rejects.toMatchObject(refusal(file));
    await expect(s.loadArchive('s')).rejects.toMatchObject(refusal(file));
    await expect(s.append('s', [{ role: 'user', content: 'hi' }])).rejects.toMatchObject(refusal(file));
    await expect(s.replace('s', [{ role: 'user', content: 'hi' }])).rejects.toMatchObject(refusal(file));
    expect((await stat(file)).size).toBe(HUGE);
    expect(existsSync(at('s.archive.jsonl'))).toBe(false);
    await s.delete('s');
    expect(existsSync(file)).toBe(false);
    await s.append('s', [{ role: 'user', content: 'hello' }]);
    expect(await store().load('s')).toEqual([{ role: 'user', content: 'hello' }]);
  });

  it('ends a run abnormally with that message, sending nothing', async () => {
    await plantHuge(at('s.jsonl'));
    const server = await FakeOpenAIServer.start({ handler: () => ({ text: 'the answer' }) });
    try {
      const result = await new ReActAgent({ model: openAIModelFor(server), sessions: store() }).call('hi', { sessionId: 's' });
      expect(result.abnormal).toBe(true);
      expect(result.error).toMatch(/^Refusing to read .*s\.jsonl: it is \d+ bytes/);
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});

describe('FileSessionStore with a file too large to read as <id>.archive.jsonl, <id>.grants.jsonl or <taskId>.task.json', () => {
  it('says so when it is read, rather than failing without a name or taking the task for unknown', async () => {
    const s = store();
    await s.append('s', [{ role: 'user', content: 'hi' }]);
    await expect(s.loadArchive('s')).resolves.toHaveLength(1);
    const archive = await plantHuge(at('s.archive.jsonl'));
    await expect(s.loadArchive('s')).rejects.toMatchObject(refusal(archive));
    const grants = await plantHuge(at('s.grants.jsonl'));
    await expect(s.loadGrants('s')).rejects.toMatchObject(refusal(grants));
    const task = await plantHuge(at('t1.task.json'));
    await expect(s.loadTaskInfo('t1')).rejects.toMatchObject(refusal(task));
  });
});
