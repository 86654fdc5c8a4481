/**
 * The workspace's real path is looked up once per operation of a store, not once per
 * confinement check (`withRealPath`): a task file written made four look-ups, a read two,
 * a delete's scan two per task file. Never for ever: a sessions folder replaced by a link
 * between operations is still refused, and a workspace moved behind a link between
 * operations is taken where it really is then.
 */
import fsp, { readdir, rename, symlink, writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { workspaceBesideOutsidePerTest } from '../support/workspace-beside-outside.js';

const dirs = workspaceBesideOutsidePerTest();

/** The paths `realpath` is asked for while counting (`node:fs/promises` wrapped, in this test file's worker only). */
const looked: string[] = [];
let counting = false;
const module = fsp as unknown as Record<string, unknown>;
const realpathOf = module.realpath as (...args: unknown[]) => Promise<string>;
module.realpath = (...args: unknown[]) => {
  if (counting) looked.push(String(args[0]));
  return realpathOf(...args);
};
syncBuiltinESMExports();
afterEach(() => {
  counting = false;
  looked.length = 0;
});

/** How many times `op` looks up the workspace's real path. */
async function workspaceLookups(op: () => Promise<unknown>): Promise<number> {
  looked.length = 0;
  counting = true;
  try {
    await op();
  } finally {
    counting = false;
  }
  return looked.filter((path) => path === dirs.ws).length;
}

const task = (taskId: string, ownerSessionId = 'other') => ({ taskId, agentName: 'beta', description: 'scan', ownerSessionId });

describe("the workspace's real path, looked up once per operation", () => {
  it('once for a task file written, once for it read, once for a delete scanning five task files', async () => {
    const store = new FileSessionStore(dirs.ws, { grantKey: 'k' });
    await store.append('talk', [{ role: 'user', content: 'hi' }]);
    for (let i = 0; i < 5; i++) await store.saveTaskInfo(task(`t${i}`));
    expect(await workspaceLookups(() => store.saveTaskInfo(task('t9')))).toBe(1);
    expect(await workspaceLookups(() => store.loadTaskInfo('t9'))).toBe(1);
    // The survey of its files, then one for the scan of the six task files (none of them its).
    expect(await workspaceLookups(() => store.delete('talk'))).toBe(2);
  });

  it('not kept between operations: a sessions folder replaced by a link out is refused by the next write, read and delete', async () => {
    const store = new FileSessionStore(dirs.ws, { grantKey: 'k' });
    await store.saveTaskInfo(task('t1', 'talk'));
    const sessions = join(dirs.ws, '.rxharness', 'sessions');
    await rename(sessions, join(dirs.root.dir, 'aside'));
    await symlink(dirs.outside, sessions);
    await writeFile(join(dirs.outside, 't1.task.json'), '{}');
    const named = `${sessions} is a symbolic link to ${dirs.outside}`;
    await expect(store.saveTaskInfo(task('t2', 'talk'))).rejects.toThrow(named);
    await expect(store.loadTaskInfo('t1')).rejects.toThrow(named);
    await expect(store.delete('talk')).rejects.toThrow(named);
    expect(await readdir(dirs.outside)).toEqual(['t1.task.json']);
  });

  it('not kept between operations: a workspace moved behind a link is written where it really is then', async () => {
    const store = new FileSessionStore(dirs.ws, { grantKey: 'k' });
    await store.append('s1', [{ role: 'user', content: 'one' }]);
    const moved = join(dirs.root.dir, 'moved');
    await rename(dirs.ws, moved);
    await symlink(moved, dirs.ws); // a link above the root is fine: taken as it really is
    await store.append('s2', [{ role: 'user', content: 'two' }]);
    await store.saveTaskInfo(task('t1', 's2'));
    expect((await readdir(join(moved, '.rxharness', 'sessions'))).sort()).toEqual(['s1.jsonl', 's1.summary.json', 's2.jsonl', 's2.summary.json', 't1.task.json']);
  });
});
