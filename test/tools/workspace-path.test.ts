import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { resolveWorkspacePath } from '../../src/tools/workspace-path.js';
import { workspaceBesideOutsidePerTest } from '../support/workspace-beside-outside.js';

describe('resolveWorkspacePath', () => {
  const dirs = workspaceBesideOutsidePerTest();

  beforeEach(async () => {
    await dirs.root.file('ws/src/a.ts', 'a');
    await dirs.root.file('outside/secret.txt', 'secret');
    await dirs.root.file('ws-other/b.txt', 'b');
  });

  it('resolves a relative path inside the workspace', async () => {
    expect(await resolveWorkspacePath(dirs.ws, 'src/a.ts')).toEqual({
      absolute: join(dirs.ws, 'src/a.ts'),
      relative: 'src/a.ts',
      inside: true,
    });
  });

  it('calls the workspace root "."', async () => {
    expect(await resolveWorkspacePath(dirs.ws, '.')).toEqual({ absolute: dirs.ws, relative: '.', inside: true });
    expect((await resolveWorkspacePath(dirs.ws, 'src/..')).relative).toBe('.');
  });

  it('normalises .. and judges where it lands', async () => {
    expect((await resolveWorkspacePath(dirs.ws, 'src/../src/a.ts')).relative).toBe('src/a.ts');
    const escaped = await resolveWorkspacePath(dirs.ws, 'src/../../outside/secret.txt');
    expect(escaped).toEqual({ absolute: join(dirs.outside, 'secret.txt'), relative: join(dirs.outside, 'secret.txt'), inside: false });
    expect((await resolveWorkspacePath(dirs.ws, '..')).inside).toBe(false);
  });

  it('accepts absolute paths inside and outside', async () => {
    expect(await resolveWorkspacePath(dirs.ws, join(dirs.ws, 'src/a.ts'))).toMatchObject({ relative: 'src/a.ts', inside: true });
    expect(await resolveWorkspacePath(dirs.ws, '/etc/hostname')).toMatchObject({ inside: false, relative: '/etc/hostname' });
  });

  it('does not treat a sibling that shares the prefix as inside', async () => {
    const sibling = await resolveWorkspacePath(dirs.ws, join(dirs.root.dir, 'ws-other/b.txt'));
    expect(sibling.inside).toBe(false);
    expect((await resolveWorkspacePath(dirs.ws, '../ws-other/b.txt')).inside).toBe(false);
  });

  it('keeps paths that do not exist yet, under their real parent', async () => {
    expect(await resolveWorkspacePath(dirs.ws, 'new/deep/file.txt')).toEqual({
      absolute: join(dirs.ws, 'new/deep/file.txt'),
      relative: 'new/deep/file.txt',
      inside: true,
    });
  });

  it('follows a symlink that points out of the workspace', async () => {
    await symlink(join(dirs.outside, 'secret.txt'), join(dirs.ws, 'innocent.txt'));
    expect(await resolveWorkspacePath(dirs.ws, 'innocent.txt')).toMatchObject({
      absolute: join(dirs.outside, 'secret.txt'),
      inside: false,
    });
  });

  it('judges a new file under a symlinked folder by where the folder really is', async () => {
    await symlink(dirs.outside, join(dirs.ws, 'linked'));
    expect(await resolveWorkspacePath(dirs.ws, 'linked/new.txt')).toMatchObject({
      absolute: join(dirs.outside, 'new.txt'),
      inside: false,
    });
  });

  it('follows a dangling symlink to where writing through it would create a file', async () => {
    await symlink(join(dirs.outside, 'not-yet.txt'), join(dirs.ws, 'dangling'));
    expect(await resolveWorkspacePath(dirs.ws, 'dangling')).toMatchObject({
      absolute: join(dirs.outside, 'not-yet.txt'),
      inside: false,
    });
  });

  it('accepts a symlink that stays inside and names the real path', async () => {
    await symlink(join(dirs.ws, 'src'), join(dirs.ws, 'alias'));
    expect(await resolveWorkspacePath(dirs.ws, 'alias/a.ts')).toMatchObject({ relative: 'src/a.ts', inside: true });
  });

  it('resolves the workspace itself when it is given through a symlink', async () => {
    const link = join(dirs.root.dir, 'ws-link');
    await symlink(dirs.ws, link);
    expect(await resolveWorkspacePath(link, 'src/a.ts')).toMatchObject({ absolute: join(dirs.ws, 'src/a.ts'), inside: true });
  });

  it('does not loop forever on a symlink cycle', async () => {
    await mkdir(join(dirs.ws, 'loop'));
    await symlink(join(dirs.ws, 'loop/b'), join(dirs.ws, 'loop/a'));
    await symlink(join(dirs.ws, 'loop/a'), join(dirs.ws, 'loop/b'));
    expect((await resolveWorkspacePath(dirs.ws, 'loop/a')).inside).toBe(true);
  });
});
