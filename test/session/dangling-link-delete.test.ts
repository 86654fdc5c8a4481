import { mkdir, rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { realFolderPath } from '../../src/session/real-folder-path.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();
const GRANT = { toolName: 'bash', subject: 'git push --force' };
const hi = [{ role: 'user' as const, content: 'hi' }];
const byFile = () => new FileSessionStore(ws.dir, { home: ws.home });

/**
 * Makes the folder `moved` and the links `links` (name in the workspace → target, made in
 * order), writes a conversation through `.rxharness`, moves `moved` aside (a link on the way
 * then dangles), deletes the conversation and puts `moved` back. Answers a fresh store and the
 * sessions folder's key before and while `moved` was aside.
 */
async function deletedWhileDangling(moved: string, links: readonly (readonly [string, string])[]) {
  await mkdir(join(ws.dir, moved), { recursive: true });
  for (const [name, target] of links) await symlink(target, join(ws.dir, name));
  const store = byFile();
  await store.append('talk', hi);
  await store.saveGrant('talk', GRANT);
  const before = await realFolderPath(store.dir);
  const aside = join(ws.dir, 'kept');
  await rename(join(ws.dir, moved), aside);
  const during = await realFolderPath(store.dir);
  await byFile().delete('talk');
  await rename(aside, join(ws.dir, moved));
  return { fresh: byFile(), before, during };
}

describe('a delete through a dangling link on the way to the sessions folder', () => {
  it('ends the lifetime where the link leads: put back, the grant and the messages are refused', async () => {
    const { fresh, before, during } = await deletedWhileDangling('elsewhere', [['.rxharness', 'elsewhere']]);
    expect(await fresh.loadGrants('talk')).not.toContainEqual(GRANT);
    await expect(fresh.load('talk')).rejects.toThrow(/deleted/);
    expect(during).toBe(before); // the path the folder is reached by once put back
  });

  it('a chain of two dangling links (absolute, then relative with ".." after a link) is followed as the system would', async () => {
    await mkdir(join(ws.dir, 'sub', 'inner'), { recursive: true });
    const { fresh, before, during } = await deletedWhileDangling(join('sub', 'elsewhere'), [
      ['deep', join('sub', 'inner')],
      ['.rxharness', join(ws.dir, 'hop')],
      ['hop', 'deep/../elsewhere'], // ".." from deep's target, sub/inner: sub/elsewhere, not ./elsewhere
    ]);
    expect(await fresh.loadGrants('talk')).not.toContainEqual(GRANT);
    await expect(fresh.load('talk')).rejects.toThrow(/deleted/);
    expect(during).toBe(before);
  });

  it('a missing folder then ".." goes back into existing folders, whose links are followed (gone/../hop, hop -> elsewhere)', async () => {
    await mkdir(join(ws.dir, 'elsewhere'));
    const { fresh, before, during } = await deletedWhileDangling('gone', [
      ['hop', 'elsewhere'],
      ['.rxharness', 'gone/../hop'], // "gone" moved aside: not "hop" by text, but where it leads
    ]);
    expect(await fresh.loadGrants('talk')).not.toContainEqual(GRANT);
    await expect(fresh.load('talk')).rejects.toThrow(/deleted/);
    expect(before).toBe(join(await realFolderPath(ws.dir), 'elsewhere', 'sessions'));
    expect(during).toBe(before);
  });

  it('a link loop on the way is a clear error naming a link of it, not a hang', async () => {
    await symlink('loop-b', join(ws.dir, 'loop-a'));
    await symlink('loop-a', join(ws.dir, 'loop-b'));
    await symlink('loop-a', join(ws.dir, '.rxharness'));
    const folder = join(ws.dir, '.rxharness', 'sessions');
    await expect(realFolderPath(folder)).rejects.toThrow(/more than 40 symbolic links \(a loop, through .*loop-[ab]\): mend or remove/);
    // The delete ends no lifetime and removes nothing it cannot reach: it fails, and returns.
    await expect(byFile().delete('talk')).rejects.toThrow(/ELOOP|symbolic links/);
  });
});
