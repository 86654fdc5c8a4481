/**
 * The one walk of links (`walkLinks`) that both `realFolderPath` and the blocked-way error
 * use: a loop is the links still being followed when one is met again (its lead-in included),
 * `..` after a link is taken from where the link led (as the system does), a link met again
 * once the way got past it is no loop, and a chain of more than 40 links is bounded.
 */
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_LINKS, walkLinks } from '../../src/session/link-walk.js';
import { realFolderPath } from '../../src/session/real-folder-path.js';
import { removeConfinedFiles } from '../../src/session/remove-confined-files.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();

describe('walkLinks, shared by realFolderPath and the blocked-way error', () => {
  it('a loop reached through "hop/.." is named where the system goes round it, by the blocked-way error and realFolderPath alike', async () => {
    await mkdir(join(ws.dir, 'sub', 'deeper'), { recursive: true });
    await symlink('loop-b', join(ws.dir, 'sub', 'loop-a'));
    await symlink('loop-a', join(ws.dir, 'sub', 'loop-b'));
    await symlink(join('sub', 'deeper'), join(ws.dir, 'hop'));
    // The system takes ".." from where hop leads (sub), not by text (the workspace, which has no loop-a).
    await symlink('hop/../loop-a', join(ws.dir, '.rxharness')); // not join(): it would take the .. by text
    const [link, a, b] = [join(ws.dir, '.rxharness'), join(ws.dir, 'sub', 'loop-a'), join(ws.dir, 'sub', 'loop-b')];
    const root = { path: ws.dir, label: 'the workspace' };
    await expect(removeConfinedFiles(root, [join(link, 'sessions', 's.jsonl')])).rejects.toThrow(
      `${link} is a symbolic link going round a loop of symbolic links (${link} -> ${a} -> ${b} -> ${a})`,
    );
    await expect(realFolderPath(join(link, 'sessions'))).rejects.toThrow(`(a loop, through ${a})`);
  });

  it('a link met again once the way got past it is no loop; the way ends at the real path', async () => {
    await mkdir(join(ws.dir, 'x'));
    await symlink('.', join(ws.dir, 'here'));
    const walk = await walkLinks(join(ws.dir, 'here', 'here', 'x', 'missing'));
    expect(walk).toEqual({ links: [join(ws.dir, 'here'), join(ws.dir, 'here')], end: join(await realFolderPath(ws.dir), 'x', 'missing') });
  });

  it(`a chain of more than ${MAX_LINKS} links without a cycle is bounded, its links named in order`, async () => {
    await mkdir(join(ws.dir, 'end'));
    for (let i = 0; i <= MAX_LINKS; i++) await symlink(i === MAX_LINKS ? 'end' : `l${i + 1}`, join(ws.dir, `l${i}`));
    const walk = await walkLinks(join(ws.dir, 'l0'));
    expect(walk.loop).toHaveLength(MAX_LINKS + 1);
    expect(walk.loop?.[0]).toBe(join(ws.dir, 'l0'));
    expect(walk.end).toBe(join(ws.dir, `l${MAX_LINKS}`));
    expect((await walkLinks(join(ws.dir, 'l1'))).end).toBe(join(await realFolderPath(ws.dir), 'end'));
  });
});
