/**
 * The confined calls of a list, a removal and a whole-file write look the workspace up once:
 * a list of 30 sessions looked up its real path 31 times (once per summary read), a removal
 * of files that are links inside the workspace once per link, and a write `lstat`-ed its file
 * four times (the way's check and the refusal of a FIFO or folder each looked at it, before
 * and after writing). Answers and refusals are those of before (test/session covers them).
 */
import { fsCallsOf } from './fs-call-count.js';
import { mkdir, readdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeConfinedFile } from '../../src/session/confined-file.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { removeConfinedFiles } from '../../src/session/remove-confined-files.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';
import { plantFifo, plantFolder, promptly, releaseFifos } from './planted-fifo-kit.js';

const ws = workspaceHomePerTest();
afterEach(releaseFifos);

/** How many of `calls` are `name` of `path`. */
const count = (calls: readonly { name: string; path: string }[], name: string, path: string): number =>
  calls.filter((call) => call.name === name && call.path === path).length;

describe("the workspace's real path, once per operation", () => {
  it('once for a list of 30 sessions, not once per summary read', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: 'k' });
    for (let i = 0; i < 30; i++) await store.append(`s${i}`, [{ role: 'user', content: `hello ${i}` }]);
    const { result, calls } = await fsCallsOf(() => new FileSessionStore(ws.dir, { grantKey: 'k' }).list());
    expect(result).toHaveLength(30);
    expect(count(calls, 'realpath', ws.dir)).toBe(1);
  });

  it('once for a removal of files that are links inside the workspace, each still removed itself', async () => {
    const folder = join(ws.dir, 'files');
    await mkdir(folder);
    await writeFile(join(ws.dir, 'kept.txt'), 'kept');
    const files = ['a', 'b', 'c', 'd'].map((name) => join(folder, name));
    for (const file of files) await symlink(join(ws.dir, 'kept.txt'), file);
    const { result, calls } = await fsCallsOf(() => removeConfinedFiles({ path: ws.dir, label: 'the workspace' }, files));
    expect(result).toEqual([]);
    expect(await readdir(folder)).toEqual([]);
    expect(await readdir(ws.dir)).toContain('kept.txt');
    expect(count(calls, 'realpath', ws.dir)).toBe(1);
  });
});

describe('a whole-file write looks at its file once per check', () => {
  it('two lstat of the file (before and after writing), not four; a FIFO or a folder under the name is still refused', async () => {
    const real = await realpath(ws.dir); // the check walks from the real path: its lstat names the file so
    const root = { path: real, label: 'the workspace' };
    const target = join(real, 'info.json');
    await writeFile(target, 'old');
    const { calls } = await fsCallsOf(() => writeConfinedFile(root, target, 'new'));
    expect(count(calls, 'lstat', target)).toBe(2);
    const fifo = await plantFifo(join(real, 'pipe.json'));
    await expect(promptly(writeConfinedFile(root, fifo, 'x'), 'the write')).rejects.toThrow(/FIFO/);
    const folder = await plantFolder(join(real, 'folder.json'));
    await expect(writeConfinedFile(root, folder, 'x')).rejects.toThrow(/directory/);
  });
});
