import { createHook } from 'node:async_hooks';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { resolveWorkspacePath } from '../../src/tools/workspace-path.js';
import { workspaceBesideOutsidePerTest } from '../support/workspace-beside-outside.js';

// Paths whose tail does not exist: the longest prefix the system resolves is found once (a
// binary search), the rest kept as written. Asking the system once per part made a 4 KB path
// of missing folders cost thousands of calls (seconds); the answers must not have changed.

const dirs = workspaceBesideOutsidePerTest();
beforeEach(async () => {
  await dirs.root.file('ws/src/a.ts', 'a');
  await dirs.root.file('outside/secret.txt', 'secret');
});

/** How many requests the file system is asked while `work` runs (async_hooks sees each). */
async function fsRequestsDuring(work: () => Promise<unknown>): Promise<number> {
  let requests = 0;
  const hook = createHook({
    init(_id, type) {
      if (type.startsWith('FSREQ')) requests += 1;
    },
  });
  hook.enable();
  try {
    await work();
  } finally {
    hook.disable();
  }
  return requests;
}

describe('resolving a path whose tail does not exist', () => {
  it('asks the file system a few times, not once per missing folder', async () => {
    const path = 'a/'.repeat(2_000) + 'b';
    let resolved: Awaited<ReturnType<typeof resolveWorkspacePath>> | undefined;
    const requests = await fsRequestsDuring(async () => {
      resolved = await resolveWorkspacePath(dirs.ws, path);
    });
    expect(resolved).toEqual({ absolute: join(dirs.ws, path), relative: path, inside: true });
    // One per part was 4,004 here (a realpath and an lstat each); a search takes about log2(2,000).
    expect(requests).toBeLessThan(64);
  });

  it('finds where the existing part ends at every depth, through a link on the way', async () => {
    await symlink(join(dirs.ws, 'src'), join(dirs.ws, 'alias'));
    const deep = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8'];
    for (let existing = 0; existing <= deep.length; existing += 1) {
      if (existing > 0) await mkdir(join(dirs.ws, 'src', ...deep.slice(0, existing)));
      const resolved = await resolveWorkspacePath(dirs.ws, ['alias', ...deep, 'new.txt'].join('/'));
      expect(resolved, `${existing} folders exist`).toEqual({
        absolute: join(dirs.ws, 'src', ...deep, 'new.txt'),
        relative: ['src', ...deep, 'new.txt'].join('/'),
        inside: true,
      });
    }
  });

  it('judges many missing folders under a link to outside by where the link leads', async () => {
    await symlink(dirs.outside, join(dirs.ws, 'out'));
    const rest = 'x/'.repeat(1_500) + 'f';
    const resolved = await resolveWorkspacePath(dirs.ws, `out/${rest}`);
    expect(resolved).toMatchObject({ absolute: join(dirs.outside, rest), inside: false });
  });

  it('normalises .. parts before judging, missing folders or not', async () => {
    expect((await resolveWorkspacePath(dirs.ws, 'missing/../src/new/../a.ts')).relative).toBe('src/a.ts');
    expect((await resolveWorkspacePath(dirs.ws, 'missing/deeper/../../../outside/new/f')).absolute).toBe(join(dirs.outside, 'new/f'));
  });

  it('keeps the rest as written after a missing middle folder', async () => {
    // `src/a.ts` exists, but not under `gone/`: nothing below a missing folder is looked at.
    expect(await resolveWorkspacePath(dirs.ws, 'gone/src/a.ts')).toEqual({ absolute: join(dirs.ws, 'gone/src/a.ts'), relative: 'gone/src/a.ts', inside: true });
  });

  it('keeps the rest as written below a file where a folder is expected', async () => {
    expect(await resolveWorkspacePath(dirs.ws, 'src/a.ts/x/y')).toEqual({ absolute: join(dirs.ws, 'src/a.ts/x/y'), relative: 'src/a.ts/x/y', inside: true });
  });

  it('follows a dangling link at the first missing part, and keeps the folders below it', async () => {
    await symlink('../../outside/not-yet', join(dirs.ws, 'src/later'));
    expect(await resolveWorkspacePath(dirs.ws, 'src/later/x/y.txt')).toMatchObject({ absolute: join(dirs.outside, 'not-yet/x/y.txt'), inside: false });
  });

  it('follows a dangling link whose target goes through another link back inside', async () => {
    await symlink(join(dirs.ws, 'src'), join(dirs.outside, 'back-in'));
    await symlink(join(dirs.outside, 'back-in/new/deeper'), join(dirs.ws, 'round-trip'));
    expect(await resolveWorkspacePath(dirs.ws, 'round-trip/f.txt')).toEqual({
      absolute: join(dirs.ws, 'src/new/deeper/f.txt'),
      relative: 'src/new/deeper/f.txt',
      inside: true,
    });
  });

  it('keeps a part over NAME_MAX and what follows as written, under the real folder before it', async () => {
    await symlink(join(dirs.ws, 'src'), join(dirs.ws, 'alias'));
    const long = 'n'.repeat(300);
    expect(await resolveWorkspacePath(dirs.ws, `alias/missing/${long}/f`)).toMatchObject({ relative: `src/missing/${long}/f`, inside: true });
    expect(await resolveWorkspacePath(dirs.ws, `alias/${long}/f`)).toMatchObject({ relative: `src/${long}/f`, inside: true });
  });
});
