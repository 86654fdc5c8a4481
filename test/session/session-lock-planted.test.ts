/**
 * The session lock file lies in the workspace, where a model's command (or a cloned
 * repository) can plant anything under its name. A claim never follows, opens or waits on
 * what it finds there, never writes outside, and says what to delete; it removes a lock only
 * when the lock's own process has ended on this machine.
 */
import { spawnSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { sessionLockFile } from '../../src/session/session-lock-file.js';
import { linuxIdentity } from './lock-identity.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';
import { plantFifo, plantFolder, promptly, releaseFifos } from './planted-fifo-kit.js';

const fresh = toolContextPerTest();
afterEach(() => releaseFifos());

const store = (): FileSessionStore => new FileSessionStore(fresh.ws.dir, { grantKey: 'lock-test-key' });
const lockOf = (s: FileSessionStore): string => sessionLockFile(s.dir, 's');

/** Plants `content` as the lock of session `s`; answers its path. */
async function plant(s: FileSessionStore, content: string | object): Promise<string> {
  await mkdir(s.dir, { recursive: true });
  await writeFile(lockOf(s), typeof content === 'string' ? content : JSON.stringify(content));
  return lockOf(s);
}

/** The claim is granted once the planted thing is gone: a refused or failed claim kept nothing. */
async function grantedAfterwards(s: FileSessionStore): Promise<void> {
  const claim = await s.claim('s', 'run_later');
  expect(claim.granted).toBe(true);
  if (claim.granted) claim.release();
}

describe('planted session lock files', () => {
  it('a link as the lock, to a file outside or to nowhere: refused naming it, nothing followed or written', async () => {
    const outside: TestWorkspace = await makeWorkspace();
    try {
      const s = store();
      const victim = await outside.file('victim.txt', 'precious\n');
      for (const target of [victim, `${outside.dir}/created.txt`]) {
        await mkdir(s.dir, { recursive: true });
        await symlink(target, lockOf(s));
        await expect(promptly(s.claim('s', 'run_x'), 'claim')).rejects.toMatchObject({ name: 'UnsafeLinkError', message: expect.stringContaining(lockOf(s)) });
        expect(await readFile(victim, 'utf8')).toBe('precious\n');
        expect(await readdir(outside.dir)).toEqual(['victim.txt']);
        expect(readlinkSync(lockOf(s))).toBe(target); // left as it is, for the user to look at
        await rm(lockOf(s));
        await grantedAfterwards(s);
      }
    } finally {
      await outside.cleanup();
    }
  });

  it('a folder or a FIFO as the lock: refused at once naming it and what it is', async () => {
    const s = store();
    await plantFolder(lockOf(s));
    await expect(promptly(s.claim('s', 'run_x'), 'claim')).rejects.toMatchObject({ name: 'NotRegularFileError', kind: 'directory', file: lockOf(s) });
    expect(await readdir(lockOf(s))).toEqual(['kept.txt']);
    await plantFifo(lockOf(s));
    await expect(promptly(s.claim('s', 'run_x'), 'claim')).rejects.toMatchObject({ name: 'NotRegularFileError', kind: 'FIFO (named pipe)', file: lockOf(s) });
  });

  it('garbage, a cut lock, a huge file, a lock naming control characters: refused, naming the file to delete, and left as it is', async () => {
    const s = store();
    const huge = 'x'.repeat(4 * 1024 * 1024);
    const cases = ['', '{"owner":"run_cut","pid":12', 'not json', '[1,2]', huge, { owner: 'run\u001b[2Jx', pid: 12, host: hostname(), startedAt: 1, token: 't' }];
    for (const [i, content] of cases.entries()) {
      const file = await plant(s, content);
      const claim = await promptly(s.claim('s', 'run_x'), 'claim');
      expect(claim).toEqual({
        granted: false,
        owner:
          i < 2 // empty or cut, and fresh: maybe being written (see session-lock-stuck.test.ts)
            ? `unknown (the lock file ${file} is being written right now, or its writer died there and it goes in a minute: try again)`
            : `unknown (the lock file ${file} is not one rxharness writes: if no rxharness process uses this session, delete it)`,
      });
      expect((await readFile(file, 'utf8')).length).toBe(typeof content === 'string' ? content.length : JSON.stringify(content).length);
    }
  });

  it("a lock of another machine's process: refused naming it, its machine and the file; never judged from here", async () => {
    const s = store();
    const file = await plant(s, { owner: 'run_far', pid: 999_999_999, host: 'far.example', startedAt: 1, token: 't' });
    expect(await s.claim('s', 'run_x')).toEqual({ granted: false, owner: `run_far (pid 999999999 on far.example, which cannot be checked from here: if no rxharness process uses this session, delete its lock file ${file})` });
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ owner: 'run_far' });
  });

  it("a lock whose process has ended on this machine is recovered; a live process's is not", async () => {
    const s = store();
    const ended = spawnSync(process.execPath, ['-e', '']).pid!;
    await plant(s, { owner: 'run_gone', pid: ended, host: hostname(), ...linuxIdentity(), startedAt: 1, token: 't' });
    await grantedAfterwards(s);
    expect(await readdir(s.dir)).toEqual([]);

    // This very process, as it is (the start time matches): alive, so refused.
    const live = await plant(s, { owner: 'run_live', pid: process.pid, host: hostname(), ...linuxIdentity(), startedAt: 1, token: 't' });
    expect(await s.claim('s', 'run_x')).toMatchObject({ granted: false, owner: expect.stringMatching(/^run_live \(pid \d+ on /) });
    expect(JSON.parse(await readFile(live, 'utf8'))).toMatchObject({ owner: 'run_live' });
  });

  it.runIf(process.platform === 'linux')('a lock naming a live pid that a later process was given (another start time) is recovered', async () => {
    const s = store();
    await plant(s, { owner: 'run_before_reuse', pid: process.pid, host: hostname(), ...linuxIdentity(), processStart: '1', startedAt: 1, token: 't' });
    await grantedAfterwards(s);
  });

  it('a recovery guard that cannot be judged (not written by rxharness): refused, naming both files to delete', async () => {
    const s = store();
    const ended = spawnSync(process.execPath, ['-e', '']).pid!;
    const file = await plant(s, { owner: 'run_gone', pid: ended, host: hostname(), ...linuxIdentity(), startedAt: 1, token: 't' });
    await writeFile(`${file}.recover`, 'not json');
    expect(await s.claim('s', 'run_x')).toEqual({
      granted: false,
      owner: `run_gone (pid ${ended} on ${hostname()}, which has ended; a recovery of its lock file stopped or cannot be checked: if no rxharness process uses this session, delete ${file} and ${file}.recover)`,
    });
    expect((await readdir(s.dir)).sort()).toEqual(['s.lock', 's.lock.recover']);
  });

  it('a link planted as the recovery guard: refused naming it, nothing written through it', async () => {
    const outside = await makeWorkspace();
    try {
      const s = store();
      const ended = spawnSync(process.execPath, ['-e', '']).pid!;
      const file = await plant(s, { owner: 'run_gone', pid: ended, host: hostname(), ...linuxIdentity(), startedAt: 1, token: 't' });
      await symlink(`${outside.dir}/written.txt`, `${file}.recover`);
      await expect(s.claim('s', 'run_x')).rejects.toMatchObject({ name: 'UnsafeLinkError', message: expect.stringContaining(`${file}.recover`) });
      expect(await readdir(outside.dir)).toEqual([]);
    } finally {
      await outside.cleanup();
    }
  });
});

