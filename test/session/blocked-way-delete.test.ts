/**
 * A delete whose way to the sessions folder is blocked (a link to a file, a file, a link loop)
 * fails naming the name that blocks it and what to do, and removes nothing: the system's bare
 * `ENOTDIR` / `ELOOP` named only a session file, not which name to mend.
 */
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { removeConfinedFiles } from '../../src/session/remove-confined-files.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();
const byFile = () => new FileSessionStore(ws.dir, { home: ws.home });

describe('a delete through a blocked way to the sessions folder', () => {
  it('.rxharness/sessions a link to a file: names the link and its target, says to remove it, and the file is left', async () => {
    await mkdir(join(ws.dir, '.rxharness'));
    await writeFile(join(ws.dir, 'notes.txt'), 'mine');
    await symlink('../notes.txt', join(ws.dir, '.rxharness', 'sessions'));
    const error = await byFile().delete('talk').then(() => undefined, (e: unknown) => e as Error);
    expect(error?.message).toContain(`${join(ws.dir, '.rxharness', 'sessions')} is a symbolic link to ${join(ws.dir, 'notes.txt')}, which is not a folder`);
    expect(error?.message).toMatch(/Nothing in it was written or removed; remove the link .*then try again/);
    expect(error?.message).not.toMatch(/ENOTDIR/);
    expect(await readFile(join(ws.dir, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('.rxharness/sessions a file: says so and to move it away', async () => {
    await mkdir(join(ws.dir, '.rxharness'));
    await writeFile(join(ws.dir, '.rxharness', 'sessions'), 'mine');
    await expect(byFile().delete('talk')).rejects.toThrow(`${join(ws.dir, '.rxharness', 'sessions')} is a file, not a folder. Nothing in it was written or removed; move that file away`);
    expect(await readFile(join(ws.dir, '.rxharness', 'sessions'), 'utf8')).toBe('mine');
  });

  it('.rxharness a link to itself: names the looping link and says to remove it', async () => {
    await symlink('.rxharness', join(ws.dir, '.rxharness'));
    const link = join(ws.dir, '.rxharness');
    await expect(byFile().delete('talk')).rejects.toThrow(`${link} is a symbolic link going round a loop of symbolic links (${link} -> ${link}). Nothing in it was written or removed; remove that link`);
  });

  it('a two-link loop: removeConfinedFiles names the links of the loop and removes no file before it', async () => {
    await symlink('loop-b', join(ws.dir, 'loop-a'));
    await symlink('loop-a', join(ws.dir, 'loop-b'));
    await symlink('loop-a', join(ws.dir, '.rxharness'));
    await writeFile(join(ws.dir, 'kept.txt'), 'mine');
    const root = { path: ws.dir, label: 'the workspace' };
    const [a, b] = [join(ws.dir, 'loop-a'), join(ws.dir, 'loop-b')];
    // A file that can be removed first in the list: the blocked way is found before anything goes.
    await expect(removeConfinedFiles(root, [join(ws.dir, 'kept.txt'), join(ws.dir, '.rxharness', 'sessions', 's.jsonl')])).rejects.toThrow(
      `${join(ws.dir, '.rxharness')} is a symbolic link going round a loop of symbolic links (${join(ws.dir, '.rxharness')} -> ${a} -> ${b} -> ${a})`,
    );
    expect(await readFile(join(ws.dir, 'kept.txt'), 'utf8')).toBe('mine');
  });
});
