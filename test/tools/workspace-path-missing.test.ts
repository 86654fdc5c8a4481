import { createHook } from 'node:async_hooks';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveWorkspacePath } from '../../src/tools/workspace-path.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

// Paths whose tail does not exist: the longest prefix the system resolves is found once (a
// binary search), the rest kept as written. Asking the system once per part made a 4 KB path
// of missing folders cost thousands of calls (seconds); the answers must not have changed.

let root: TestWorkspace;
let ws: string;
let outside: string;
beforeEach(async () => {
  root = await makeWorkspace();
  ws = join(root.dir, 'ws');
  outside = join(root.dir, 'outside');
  await root.file('ws/src/a.ts', 'a');
  await root.file('outside/secret.txt', 'secret');
});
afterEach(() => root.cleanup());

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
      resolved = await resolveWorkspacePath(ws, path);
    });
    expect(resolved).toEqual({ absolute: join(ws, path), relative: path, inside: true });
    // One per part was 4,004 here (a realpath and an lstat each); a search takes about log2(2,000).
    expect(requests).toBeLessThan(64);
  });

  it('finds where the existing part ends at every depth, through a link on the way', async () => {
    await symlink(join(ws, 'src'), join(ws, 'alias'));
    const deep = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8'];
    for (let existing = 0; existing <= deep.length; existing += 1) {
      if (existing > 0) await mkdir(join(ws, 'src', ...deep.slice(0, existing)));
      const resolved = await resolveWorkspacePath(ws, ['alias', ...deep, 'new.txt'].join('/'));
      expect(resolved, `${existing} folders exist`).toEqual({
        absolute: join(ws, 'src', ...deep, 'new.txt'),
        relative: ['src', ...deep, 'new.txt'].join('/'),
        inside: true,
      });
    }
  });

  it('judges many missing folders under a link to outside by where the link leads', async () => {
    await symlink(outside, join(ws, 'out'));
    const rest = 'x/'.repeat(1_500) + 'f';
    const resolved = await resolveWorkspacePath(ws, `out/${rest}`);
    expect(resolved).toMatchObject({ absolute: join(outside, rest), inside: false });
  });

  it('normalises .. parts before judging, missing folders or not', async () => {
    expect((await resolveWorkspacePath(ws, 'missing/../src/new/../a.ts')).relative).toBe('src/a.ts');
    expect((await resolveWorkspacePath(ws, 'missing/deeper/../../../outside/new/f')).absolute).toBe(join(outside, 'new/f'));
  });

  it('keeps the rest as written after a missing middle folder', async () => {
    // `src/a.ts` exists, but not under `gone/`: nothing below a missing folder is looked at.
    expect(await resolveWorkspacePath(ws, 'gone/src/a.ts')).toEqual({ absolute: join(ws, 'gone/src/a.ts'), relative: 'gone/src/a.ts', inside: true });
  });

  it('keeps the rest as written below a file where a folder is expected', async () => {
    expect(await resolveWorkspacePath(ws, 'src/a.ts/x/y')).toEqual({ absolute: join(ws, 'src/a.ts/x/y'), relative: 'src/a.ts/x/y', inside: true });
  });

  it('follows a dangling link at the first missing part, and keeps the folders below it', async () => {
    await symlink('../../outside/not-yet', join(ws, 'src/later'));
    expect(await resolveWorkspacePath(ws, 'src/later/x/y.txt')).toMatchObject({ absolute: join(outside, 'not-yet/x/y.txt'), inside: false });
  });

  it('follows a dangling link whose target goes through another link back inside', async () => {
    await symlink(join(ws, 'src'), join(outside, 'back-in'));
    await symlink(join(outside, 'back-in/new/deeper'), join(ws, 'round-trip'));
    expect(await resolveWorkspacePath(ws, 'round-trip/f.txt')).toEqual({
      absolute: join(ws, 'src/new/deeper/f.txt'),
      relative: 'src/new/deeper/f.txt',
      inside: true,
    });
  });

  it('keeps a part over NAME_MAX and what follows as written, under the real folder before it', async () => {
    await symlink(join(ws, 'src'), join(ws, 'alias'));
    const long = 'n'.repeat(300);
    expect(await resolveWorkspacePath(ws, `alias/missing/${long}/f`)).toMatchObject({ relative: `src/missing/${long}/f`, inside: true });
    expect(await resolveWorkspacePath(ws, `alias/${long}/f`)).toMatchObject({ relative: `src/${long}/f`, inside: true });
  });
});
