/**
 * `engine.sessions.delete(id)` on a file store whose way to the sessions folder is blocked
 * (`.rxharness` a link to a folder moved aside, `.rxharness/sessions` a link to a file, a
 * link loop) fails with a message naming the name that blocks it and what to do, not the
 * system's bare `ENOTDIR` / `ELOOP`, and loses nothing: the conversation, its folder put
 * back, loads whole.
 */
import { mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();
const offline = offlineEnginePerTest();
const hi = [{ role: 'user' as const, content: 'hi' }];
const byFile = () => new FileSessionStore(ws.dir, { home: ws.home });

/** The engine's delete of `talk` on a file store of the workspace: its error. */
async function engineDeleteError(): Promise<Error | undefined> {
  const { engine } = await offline({ main: () => ({ text: 'ok' }) }, [], { sessions: byFile() });
  return Promise.resolve().then(() => engine.sessions.delete!('talk')).then(() => undefined, (e: unknown) => e as Error);
}

describe('engine.sessions.delete through a blocked way to the sessions folder', () => {
  it('.rxharness a link to a folder moved aside: names the link and the missing target, and the conversation put back loads', async () => {
    await mkdir(join(ws.dir, 'elsewhere'));
    await symlink('elsewhere', join(ws.dir, '.rxharness'));
    await byFile().append('talk', hi);
    await rename(join(ws.dir, 'elsewhere'), join(ws.dir, 'kept'));
    const error = await engineDeleteError();
    expect(error?.message).toContain(`${join(ws.dir, '.rxharness')} is a symbolic link to ${join(ws.dir, 'elsewhere')}, which does not exist`);
    expect(error?.message).toContain('Nothing in it was written or removed; put that folder back, or remove the link, then try again');
    await rename(join(ws.dir, 'kept'), join(ws.dir, 'elsewhere'));
    expect(await byFile().load('talk')).toEqual(hi);
  });

  it('.rxharness/sessions a link to a file: names the link, and the file is left as it was', async () => {
    await mkdir(join(ws.dir, '.rxharness'));
    await writeFile(join(ws.dir, 'notes.txt'), 'mine');
    await symlink('../notes.txt', join(ws.dir, '.rxharness', 'sessions'));
    const error = await engineDeleteError();
    expect(error?.message).toContain(`${join(ws.dir, '.rxharness', 'sessions')} is a symbolic link to ${join(ws.dir, 'notes.txt')}, which is not a folder`);
    expect(error?.message).toContain('remove the link');
    expect(await readFile(join(ws.dir, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('a two-link loop on the way: names the links of the loop', async () => {
    await symlink('loop-b', join(ws.dir, 'loop-a'));
    await symlink('loop-a', join(ws.dir, 'loop-b'));
    await symlink('loop-a', join(ws.dir, '.rxharness'));
    const [a, b] = [join(ws.dir, 'loop-a'), join(ws.dir, 'loop-b')];
    const error = await engineDeleteError();
    expect(error?.message).toContain(`${join(ws.dir, '.rxharness')} is a symbolic link going round a loop of symbolic links (${join(ws.dir, '.rxharness')} -> ${a} -> ${b} -> ${a})`);
    expect(error?.message).toContain('remove that link');
  });
});
