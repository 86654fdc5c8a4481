import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { makeWorkspace } from '../support/tool-context.js';
import { workspaceBesideOutsidePerTest } from '../support/workspace-beside-outside.js';

// Item 11 of the hardening issue: links planted under <workspace>/.rxharness/ (by a model's
// bash command, say) must not make the session store write outside the workspace.

const dirs = workspaceBesideOutsidePerTest();
beforeEach(async () => {
  await writeFile(join(dirs.outside, 'victim.jsonl'), 'precious\n');
});

const user = (content: string): ChatMessage => ({ role: 'user', content });
const TASK = { taskId: 'task_1', agentName: 'alpha', description: 'd', ownerSessionId: 'main' };

/** The outside folder, file by file: nothing may appear or change there. */
async function outsideFiles(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dirs.outside, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files[join(entry.parentPath, entry.name)] = await readFile(join(entry.parentPath, entry.name), 'utf8');
  }
  return files;
}

describe('FileSessionStore with links planted under .rxharness/', () => {
  const plantings: [string, () => Promise<string>][] = [
    ['.rxharness -> outside', async () => (await symlink(dirs.outside, join(dirs.ws, '.rxharness')), join(dirs.ws, '.rxharness'))],
    ['.rxharness/sessions -> outside', async () => (await mkdir(join(dirs.ws, '.rxharness')), await symlink(dirs.outside, join(dirs.ws, '.rxharness/sessions')), join(dirs.ws, '.rxharness/sessions'))],
    // Like `-> /etc`, by a relative path; never the real /etc: tests may run as root.
    ['.rxharness/sessions -> ../../outside', async () => (await mkdir(join(dirs.ws, '.rxharness')), await symlink('../../outside', join(dirs.ws, '.rxharness/sessions')), join(dirs.ws, '.rxharness/sessions'))],
  ];

  for (const [name, plant] of plantings) {
    it(`${name}: append and saveTaskInfo refuse, naming the link; nothing is written outside`, async () => {
      const link = await plant();
      const before = await outsideFiles();
      const store = new FileSessionStore(dirs.ws, { home: dirs.root.home });
      await expect(store.append('victim', [user('x')])).rejects.toThrow(`${link} is a symbolic link`);
      await expect(store.append('victim', [user('x')])).rejects.toThrow(/outside the workspace .*remove the link/i);
      await expect(store.saveTaskInfo(TASK)).rejects.toThrow(`${link} is a symbolic link`);
      await expect(store.load('victim')).rejects.toThrow(`${link} is a symbolic link`);
      expect(await outsideFiles()).toEqual(before);
    });
  }

  it('a link planted as the session file itself is refused, and its target left alone', async () => {
    await mkdir(join(dirs.ws, '.rxharness/sessions'), { recursive: true });
    const file = join(dirs.ws, '.rxharness/sessions/s1.jsonl');
    await symlink(join(dirs.outside, 'victim.jsonl'), file);
    const store = new FileSessionStore(dirs.ws, { home: dirs.root.home });
    await expect(store.append('s1', [user('x')])).rejects.toThrow(`${file} is a symbolic link`);
    await expect(store.load('s1')).rejects.toThrow(`${file} is a symbolic link`);
    expect(await readFile(join(dirs.outside, 'victim.jsonl'), 'utf8')).toBe('precious\n');
    // A dangling one would create its target: it is refused too.
    await symlink(join(dirs.outside, 'new.jsonl'), join(dirs.ws, '.rxharness/sessions/s2.jsonl'));
    await expect(store.append('s2', [user('x')])).rejects.toThrow('s2.jsonl is a symbolic link');
    expect(existsSync(join(dirs.outside, 'new.jsonl'))).toBe(false);
  });

  it('a link planted as the task file or its temporary file is refused', async () => {
    await mkdir(join(dirs.ws, '.rxharness/sessions'), { recursive: true });
    const target = join(dirs.ws, '.rxharness/sessions/task_1.task.json');
    await symlink(join(dirs.outside, 'victim.jsonl'), target);
    const store = new FileSessionStore(dirs.ws, { home: dirs.root.home });
    await expect(store.saveTaskInfo(TASK)).rejects.toThrow(`${target} is a symbolic link`);
    await expect(store.loadTaskInfo('task_1')).rejects.toThrow(`${target} is a symbolic link`);
    expect(await readFile(join(dirs.outside, 'victim.jsonl'), 'utf8')).toBe('precious\n');
    expect(await readdir(join(dirs.ws, '.rxharness/sessions'))).toEqual(['task_1.task.json']); // no temporary file left
  });

  it('loses nothing: a link planted mid-life is refused, and once it is gone the session goes on', async () => {
    const store = new FileSessionStore(dirs.ws, { home: dirs.root.home });
    await store.append('s1', [user('one')]);
    const sessions = join(dirs.ws, '.rxharness/sessions');
    await rename(sessions, join(dirs.root.dir, 'aside'));
    await symlink(dirs.outside, sessions);
    await expect(store.append('s1', [user('two')])).rejects.toThrow(`${sessions} is a symbolic link to ${dirs.outside}`);
    expect(existsSync(join(dirs.outside, 's1.jsonl'))).toBe(false);
    await unlink(sessions);
    await rename(join(dirs.root.dir, 'aside'), sessions);
    await store.append('s1', [user('three')]);
    expect(await new FileSessionStore(dirs.ws, { home: dirs.root.home }).load('s1')).toEqual([user('one'), user('three')]);
  });

  it('a link that stays inside the workspace is followed as before', async () => {
    await mkdir(join(dirs.ws, 'kept'));
    await mkdir(join(dirs.ws, '.rxharness'));
    await symlink('../kept', join(dirs.ws, '.rxharness/sessions'));
    const store = new FileSessionStore(dirs.ws, { home: dirs.root.home });
    await store.append('s1', [user('one')]);
    await store.saveTaskInfo(TASK);
    expect(await store.load('s1')).toEqual([user('one')]);
    expect(await store.loadTaskInfo('task_1')).toEqual(TASK);
    expect((await readdir(join(dirs.ws, 'kept'))).sort()).toEqual(['s1.jsonl', 's1.summary.json', 'task_1.task.json']);
  });

  it('a store in its own folder (options.dir) is confined to that folder', async () => {
    const dir = join(dirs.root.dir, 'store');
    const store = new FileSessionStore('/ignored', { dir, home: dirs.root.home });
    await store.append('s', [user('x')]);
    await symlink(join(dirs.outside, 'victim.jsonl'), join(dir, 't.jsonl'));
    await expect(store.append('t', [user('x')])).rejects.toThrow(/t\.jsonl is a symbolic link .*outside the session folder/);
    expect(await readFile(join(dirs.outside, 'victim.jsonl'), 'utf8')).toBe('precious\n');
  });
});

describe('FileSessionStore.delete', () => {
  it('forgets a session and its task info; an unknown id is no error; a link on the way out is refused', async () => {
    const ws = await makeWorkspace('rxh-del-');
    const workspace = ws.dir;
    const outside = await realpath(await mkdtemp(join(tmpdir(), 'rxh-out-')));
    try {
      const store = new FileSessionStore(workspace, { home: ws.home });
      await store.append('chat', [{ role: 'user', content: 'hi' }]);
      await store.saveTaskInfo({ taskId: 'chat', agentName: 'a', description: 'd', ownerSessionId: 'o' });
      await store.delete('chat');
      expect(await store.load('chat')).toEqual([]);
      expect(await store.loadTaskInfo('chat')).toBeUndefined();
      await store.delete('never-was');

      // A planted folder link out of the workspace: delete refuses and removes nothing outside.
      const planted = new FileSessionStore(workspace, { dir: join(workspace, '.rxharness', 'other'), home: ws.home });
      await mkdir(join(outside, 'x'), { recursive: true });
      await writeFile(join(outside, 'x', 'victim.jsonl'), 'keep me\n');
      await symlink(join(outside, 'x'), join(workspace, '.rxharness', 'other'));
      await expect(planted.delete('victim')).rejects.toMatchObject({ name: 'UnsafeLinkError' });
      expect(await readFile(join(outside, 'x', 'victim.jsonl'), 'utf8')).toBe('keep me\n');
    } finally {
      await ws.cleanup();
      await rm(outside, { recursive: true, force: true });
    }
  });
});
