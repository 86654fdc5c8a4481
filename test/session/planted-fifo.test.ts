/**
 * A FIFO (`mkfifo`) planted in `.rxharness/sessions/` under one of a session's file names
 * (by a command run in the workspace, an unpacked archive) must not hang the store: opening
 * a FIFO to read waits for a writer for ever. Each call ends at once with an error naming the
 * file and what it is; `list` leaves such a session out and `delete` removes the FIFO.
 */
import { existsSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { NotRegularFileError } from '../../src/session/not-regular-file-error.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';
import { plantFifo, promptly, releaseFifos } from './planted-fifo-kit.js';

const KEY = 'test grant key';
let ws: TestWorkspace;
let warnings: string[];
const listen = (warning: Error & { code?: string }): void => {
  if (warning.code === 'RXHARNESS_BAD_SESSION_SUMMARY') warnings.push(warning.message);
};
beforeEach(async () => {
  ws = await makeWorkspace();
  warnings = [];
  process.on('warning', listen);
});
afterEach(async () => {
  process.off('warning', listen);
  await releaseFifos();
  await ws.cleanup();
});

const dir = (): string => join(ws.dir, '.rxharness', 'sessions');
const at = (name: string): string => join(dir(), name);
const user = (content: string): ChatMessage => ({ role: 'user', content });
const task = (taskId: string, ownerSessionId: string) => ({ taskId, agentName: 'beta', description: 'look', ownerSessionId });
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Waits for the process warning (emitted on a later tick) that names the planted file. */
const saysNotListed = (fifo: string) => vi.waitFor(() => expect(warnings.join('\n')).toMatch(new RegExp(`not listed: .*Refusing to use ${escaped(fifo)}: it is a FIFO`)));
const store = (): FileSessionStore => new FileSessionStore(ws.dir, { grantKey: KEY });

/** The clear refusal: names the file, says it is a FIFO and what to do. */
const refusal = (file: string) => ({
  name: 'NotRegularFileError',
  code: 'NOT_REGULAR_FILE',
  file,
  message: expect.stringMatching(new RegExp(`^Refusing to use ${escaped(file)}: it is a FIFO \\(named pipe\\), not a regular file\\..*remove it \\(rm `, 's')),
});

describe('FileSessionStore with a FIFO planted as <id>.jsonl', () => {
  it('load, loadArchive and append end at once with the error naming the FIFO; nothing is written', async () => {
    const fifo = await plantFifo(at('s1.jsonl'));
    const s = store();
    await expect(promptly(s.load('s1'), 'load')).rejects.toMatchObject(refusal(fifo));
    await expect(promptly(s.loadArchive('s1'), 'loadArchive')).rejects.toMatchObject(refusal(fifo));
    await expect(promptly(s.append('s1', [user('hello')]), 'append')).rejects.toMatchObject(refusal(fifo));
    await expect(promptly(s.replace('s1', [user('hello')]), 'replace')).rejects.toMatchObject(refusal(fifo));
    expect((await lstat(fifo)).isFIFO()).toBe(true);
    expect(existsSync(at('s1.archive.jsonl'))).toBe(false);
  });

  it('the error is an rxharness error recognised across copies', async () => {
    await plantFifo(at('s1.jsonl'));
    const error: unknown = await promptly(store().load('s1'), 'load').catch((e: unknown) => e);
    expect(NotRegularFileError.isInstance(error)).toBe(true);
  });

  it('list leaves out a session without a summary whose transcript is a FIFO, with a warning naming it, and lists the others', async () => {
    const s = store();
    await s.append('kept', [user('still here')]);
    const fifo = await plantFifo(at('s1.jsonl'));
    const listed = await promptly(s.list(), 'list');
    expect(listed.map((l) => l.sessionId)).toEqual(['kept']);
    await saysNotListed(fifo);
  });

  it('a session whose transcript was swapped for a FIFO is still listed (list reads no transcript); loading it says why', async () => {
    const s = store();
    await s.append('s1', [user('first prompt')]);
    const fifo = await plantFifo(at('s1.jsonl'));
    expect((await promptly(s.list(), 'list')).map((l) => [l.sessionId, l.title])).toEqual([['s1', 'first prompt']]);
    await expect(promptly(s.load('s1'), 'load')).rejects.toMatchObject(refusal(fifo));
  });

  it('delete removes the FIFO with the session\'s other files, and the id starts clean', async () => {
    const s = store();
    await s.append('s1', [user('hello')]);
    await s.saveGrant('s1', { toolName: 'bash', subject: 'ls' });
    const fifo = await plantFifo(at('s1.jsonl'));
    await promptly(s.delete('s1'), 'delete');
    expect(existsSync(fifo)).toBe(false);
    expect(existsSync(at('s1.grants.jsonl'))).toBe(false);
    expect(existsSync(at('s1.summary.json'))).toBe(false);
    expect(await s.load('s1')).toEqual([]);
    await s.append('s1', [user('again')]);
    expect(await store().load('s1')).toEqual([user('again')]);
  });
});

describe('FileSessionStore with a FIFO planted as another file of a session', () => {
  it('<id>.archive.jsonl: loadArchive and a compaction refuse it; load still works', async () => {
    const s = store();
    await s.append('s1', [user('hello')]);
    const fifo = await plantFifo(at('s1.archive.jsonl'));
    expect(await promptly(s.load('s1'), 'load')).toEqual([user('hello')]);
    await expect(promptly(s.loadArchive('s1'), 'loadArchive')).rejects.toMatchObject(refusal(fifo));
    await expect(promptly(s.replace('s1', [user('summary')]), 'replace')).rejects.toMatchObject(refusal(fifo));
    expect(await s.load('s1')).toEqual([user('hello')]); // the session is as it was
  });

  it('<id>.grants.jsonl: loadGrants and saveGrant refuse it', async () => {
    const s = store();
    const fifo = await plantFifo(at('s1.grants.jsonl'));
    await expect(promptly(Promise.resolve(s.loadGrants('s1')), 'loadGrants')).rejects.toMatchObject(refusal(fifo));
    await expect(promptly(s.saveGrant('s1', { toolName: 'bash', subject: 'ls' }), 'saveGrant')).rejects.toMatchObject(refusal(fifo));
  });

  it('<id>.summary.json: append refuses it (nothing written); list leaves the session out with a warning; delete removes it', async () => {
    const s = store();
    await s.append('s1', [user('hello')]);
    await s.append('kept', [user('other')]);
    const fifo = await plantFifo(at('s1.summary.json'));
    await expect(promptly(s.append('s1', [user('more')]), 'append')).rejects.toMatchObject(refusal(fifo));
    expect(await s.load('s1')).toEqual([user('hello')]);
    expect((await promptly(store().list(), 'list')).map((l) => l.sessionId)).toEqual(['kept']);
    await saysNotListed(fifo);
    await promptly(s.delete('s1'), 'delete');
    expect(existsSync(fifo)).toBe(false);
  });
});

describe('FileSessionStore with a FIFO planted as a task file (<id>.task.json)', () => {
  it('loadTaskInfo (what resuming the task asks) fails with the error, rather than hang or call the task unknown', async () => {
    const fifo = await plantFifo(at('t1.task.json'));
    await expect(promptly(store().loadTaskInfo('t1'), 'loadTaskInfo')).rejects.toMatchObject(refusal(fifo));
  });

  it('saveTaskInfo refuses to replace it', async () => {
    const fifo = await plantFifo(at('t1.task.json'));
    await expect(promptly(store().saveTaskInfo(task('t1', 'main')), 'saveTaskInfo')).rejects.toMatchObject(refusal(fifo));
    expect((await lstat(fifo)).isFIFO()).toBe(true);
  });

  it("a conversation's delete passes over a FIFO among the task files and still removes its own tasks", async () => {
    const s = store();
    await s.append('main', [user('delegate')]);
    await s.saveTaskInfo(task('t1', 'main'));
    await s.append('t1', [user('look')]);
    const fifo = await plantFifo(at('planted.task.json'));
    // A new store, as after a restart: it knows no task it started, so it reads the task files.
    await promptly(store().delete('main'), 'delete');
    expect(await s.loadTaskInfo('t1')).toBeUndefined();
    expect(existsSync(at('t1.jsonl'))).toBe(false);
    expect((await lstat(fifo)).isFIFO()).toBe(true); // not the conversation's: left alone
  });

  it('deleting the session whose task file it is removes it', async () => {
    const fifo = await plantFifo(at('t1.task.json'));
    await promptly(store().delete('t1'), 'delete');
    expect(existsSync(fifo)).toBe(false);
  });

  it('list is not held up by it', async () => {
    const s = store();
    await s.append('kept', [user('other')]);
    await plantFifo(at('t1.task.json'));
    await plantFifo(at('t1.jsonl'));
    expect((await promptly(s.list(), 'list')).map((l) => l.sessionId)).toEqual(['kept']);
  });
});
