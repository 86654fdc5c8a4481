/**
 * A folder planted in `.rxharness/sessions/` under one of a session's file names: each call
 * says which file is a folder and what to do, instead of an `EISDIR` from deep inside; a
 * delete removes everything else of the session and leaves the folder (its content is not
 * the store's), saying so.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';
import { plantFolder, promptly } from './planted-fifo-kit.js';

const KEY = 'test grant key';
let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const at = (name: string): string => join(ws.dir, '.rxharness', 'sessions', name);
const user = (content: string): ChatMessage => ({ role: 'user', content });
const task = (taskId: string, ownerSessionId: string) => ({ taskId, agentName: 'beta', description: 'look', ownerSessionId });
const store = (): FileSessionStore => new FileSessionStore(ws.dir, { grantKey: KEY });
const refusal = (file: string) => ({
  name: 'NotRegularFileError',
  file,
  kind: 'directory',
  message: expect.stringContaining(`Refusing to use ${file}: it is a directory, not a regular file.`),
});

describe('FileSessionStore with a folder planted under a session file name', () => {
  it('<id>.jsonl: load, append and a compaction say it is a folder; its content is untouched', async () => {
    const folder = await plantFolder(at('s1.jsonl'));
    const s = store();
    await expect(promptly(s.load('s1'), 'load')).rejects.toMatchObject(refusal(folder));
    await expect(promptly(s.append('s1', [user('hi')]), 'append')).rejects.toMatchObject(refusal(folder));
    await expect(promptly(s.replace('s1', [user('hi')]), 'replace')).rejects.toMatchObject(refusal(folder));
    expect(await readFile(join(folder, 'kept.txt'), 'utf8')).toBe("not the store's\n");
  });

  it('after an append refused for a folder, the next append (the file back, with a cut last line) starts a fresh line', async () => {
    const s = store();
    await s.append('s1', [user('one')]);
    const file = at('s1.jsonl');
    const one = await readFile(file, 'utf8'); // its sealed line
    await plantFolder(file);
    await expect(promptly(s.append('s1', [user('two')]), 'append')).rejects.toMatchObject(refusal(file));
    await rm(file, { recursive: true });
    await writeFile(file, `${one}{"role":"user","con`);
    await s.append('s1', [user('three')]);
    expect(await s.load('s1')).toEqual([user('one'), user('three')]);
  });

  it('<id>.task.json: resuming the task says it is a folder; saving the task info refuses to replace it', async () => {
    const folder = await plantFolder(at('t1.task.json'));
    await expect(promptly(store().loadTaskInfo('t1'), 'loadTaskInfo')).rejects.toMatchObject(refusal(folder));
    await expect(promptly(store().saveTaskInfo(task('t1', 'main')), 'saveTaskInfo')).rejects.toMatchObject(refusal(folder));
    expect(existsSync(join(folder, 'kept.txt'))).toBe(true);
  });

  it('<id>.summary.json and <id>.grants.jsonl are refused the same way', async () => {
    const summary = await plantFolder(at('s1.summary.json'));
    const grants = await plantFolder(at('s2.grants.jsonl'));
    await expect(promptly(store().append('s1', [user('hi')]), 'append')).rejects.toMatchObject(refusal(summary));
    await expect(promptly(Promise.resolve(store().loadGrants('s2')), 'loadGrants')).rejects.toMatchObject(refusal(grants));
  });

  it("delete removes the session's other files and its tasks, leaves the folder, and then says so", async () => {
    const s = store();
    await s.append('s1', [user('hello')]);
    await s.saveTaskInfo(task('t1', 's1'));
    await s.append('t1', [user('look')]);
    const folder = await plantFolder(at('s1.archive.jsonl'));
    await expect(promptly(store().delete('s1'), 'delete')).rejects.toMatchObject({
      ...refusal(folder),
      message: expect.stringContaining(`remove it (rm -r '${folder}')`),
    });
    expect(existsSync(at('s1.jsonl'))).toBe(false);
    expect(existsSync(at('s1.summary.json'))).toBe(false);
    expect(await s.loadTaskInfo('t1')).toBeUndefined();
    expect(existsSync(at('t1.jsonl'))).toBe(false);
    expect(existsSync(join(folder, 'kept.txt'))).toBe(true);
  });

  it("a folder among the task files does not stop another conversation's delete", async () => {
    const s = store();
    await s.saveTaskInfo(task('t1', 'main'));
    await plantFolder(at('planted.task.json'));
    await promptly(store().delete('main'), 'delete');
    expect(await s.loadTaskInfo('t1')).toBeUndefined();
    expect(existsSync(at('planted.task.json'))).toBe(true);
  });
});
