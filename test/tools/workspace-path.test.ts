import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveWorkspacePath } from '../../src/tools/workspace-path.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

describe('resolveWorkspacePath', () => {
  let root: TestWorkspace;
  let ws: string;
  let outside: string;

  beforeEach(async () => {
    root = await makeWorkspace();
    ws = join(root.dir, 'ws');
    outside = join(root.dir, 'outside');
    await root.file('ws/src/a.ts', 'a');
    await root.file('outside/secret.txt', 'secret');
    await root.file('ws-other/b.txt', 'b');
  });
  afterEach(() => root.cleanup());

  it('resolves a relative path inside the workspace', async () => {
    expect(await resolveWorkspacePath(ws, 'src/a.ts')).toEqual({
      absolute: join(ws, 'src/a.ts'),
      relative: 'src/a.ts',
      inside: true,
    });
  });

  it('calls the workspace root "."', async () => {
    expect(await resolveWorkspacePath(ws, '.')).toEqual({ absolute: ws, relative: '.', inside: true });
    expect((await resolveWorkspacePath(ws, 'src/..')).relative).toBe('.');
  });

  it('normalises .. and judges where it lands', async () => {
    expect((await resolveWorkspacePath(ws, 'src/../src/a.ts')).relative).toBe('src/a.ts');
    const escaped = await resolveWorkspacePath(ws, 'src/../../outside/secret.txt');
    expect(escaped).toEqual({ absolute: join(outside, 'secret.txt'), relative: join(outside, 'secret.txt'), inside: false });
    expect((await resolveWorkspacePath(ws, '..')).inside).toBe(false);
  });

  it('accepts absolute paths inside and outside', async () => {
    expect(await resolveWorkspacePath(ws, join(ws, 'src/a.ts'))).toMatchObject({ relative: 'src/a.ts', inside: true });
    expect(await resolveWorkspacePath(ws, '/etc/hostname')).toMatchObject({ inside: false, relative: '/etc/hostname' });
  });

  it('does not treat a sibling that shares the prefix as inside', async () => {
    const sibling = await resolveWorkspacePath(ws, join(root.dir, 'ws-other/b.txt'));
    expect(sibling.inside).toBe(false);
    expect((await resolveWorkspacePath(ws, '../ws-other/b.txt')).inside).toBe(false);
  });

  it('keeps paths that do not exist yet, under their real parent', async () => {
    expect(await resolveWorkspacePath(ws, 'new/deep/file.txt')).toEqual({
      absolute: join(ws, 'new/deep/file.txt'),
      relative: 'new/deep/file.txt',
      inside: true,
    });
  });

  it('follows a symlink that points out of the workspace', async () => {
    await symlink(join(outside, 'secret.txt'), join(ws, 'innocent.txt'));
    expect(await resolveWorkspacePath(ws, 'innocent.txt')).toMatchObject({
      absolute: join(outside, 'secret.txt'),
      inside: false,
    });
  });

  it('judges a new file under a symlinked folder by where the folder really is', async () => {
    await symlink(outside, join(ws, 'linked'));
    expect(await resolveWorkspacePath(ws, 'linked/new.txt')).toMatchObject({
      absolute: join(outside, 'new.txt'),
      inside: false,
    });
  });

  it('follows a dangling symlink to where writing through it would create a file', async () => {
    await symlink(join(outside, 'not-yet.txt'), join(ws, 'dangling'));
    expect(await resolveWorkspacePath(ws, 'dangling')).toMatchObject({
      absolute: join(outside, 'not-yet.txt'),
      inside: false,
    });
  });

  it('accepts a symlink that stays inside and names the real path', async () => {
    await symlink(join(ws, 'src'), join(ws, 'alias'));
    expect(await resolveWorkspacePath(ws, 'alias/a.ts')).toMatchObject({ relative: 'src/a.ts', inside: true });
  });

  it('resolves the workspace itself when it is given through a symlink', async () => {
    const link = join(root.dir, 'ws-link');
    await symlink(ws, link);
    expect(await resolveWorkspacePath(link, 'src/a.ts')).toMatchObject({ absolute: join(ws, 'src/a.ts'), inside: true });
  });

  it('does not loop forever on a symlink cycle', async () => {
    await mkdir(join(ws, 'loop'));
    await symlink(join(ws, 'loop/b'), join(ws, 'loop/a'));
    await symlink(join(ws, 'loop/a'), join(ws, 'loop/b'));
    expect((await resolveWorkspacePath(ws, 'loop/a')).inside).toBe(true);
  });
});
