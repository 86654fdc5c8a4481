/**
 * Session locks left stuck by a process killed at the wrong instant: a recovery guard
 * (`<lock>.recover`) whose recoverer died, and a lock (or guard) made but never written. Each
 * is recovered once it is verifiably stale, and never while it may be in use: a live
 * recoverer's guard, a lock young enough to be being written, text rxharness never writes.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import type { SessionClaim } from '../../src/session/session-claim.js';
import { sessionLockFile } from '../../src/session/session-lock-file.js';
import { linuxIdentity } from './lock-identity.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const fresh = toolContextPerTest();
const KEY = { grantKey: 'lock-test-key' };
const store = (): FileSessionStore => new FileSessionStore(fresh.ws.dir, KEY);
const lockOf = (s: FileSessionStore): string => sessionLockFile(s.dir, 's');

/** Well past the minute after which an empty or cut lock is taken for an unwritten one. */
const LONG_AGO = new Date(Date.now() - 10 * 60_000);


/** A lock's text naming `pid` of this machine (as this module's own locks do). */
const holder = (owner: string, pid: number): string => `${JSON.stringify({ owner, pid, host: hostname(), ...linuxIdentity(), startedAt: 1, token: `t-${owner}` })}\n`;
/** The pid of a process that has ended. */
const endedPid = (): number => spawnSync(process.execPath, ['-e', '']).pid!;

/** Plants `text` at `file` (in the store's folder), written `when` (now by default). */
async function plant(s: FileSessionStore, file: string, text: string, when?: Date): Promise<string> {
  await mkdir(s.dir, { recursive: true });
  await writeFile(file, text);
  if (when) await utimes(file, when, when);
  return file;
}

async function granted(s: FileSessionStore): Promise<void> {
  const claim = await s.claim('s', 'run_later');
  expect(claim).toMatchObject({ granted: true });
  if (claim.granted) claim.release();
  expect(await readdir(s.dir)).toEqual([]);
}

describe('stuck session locks', () => {
  it('a guard whose recoverer has ended is removed with the dead lock it guarded; the claim is granted', async () => {
    const s = store();
    const file = await plant(s, lockOf(s), holder('run_gone', endedPid()));
    await plant(s, `${file}.recover`, holder('recovery', endedPid()));
    await granted(s);
  });

  it("a live recoverer's guard (this very process) is never removed, however old: refused, try again", async () => {
    const s = store();
    const ended = endedPid();
    const file = await plant(s, lockOf(s), holder('run_gone', ended));
    const guard = await plant(s, `${file}.recover`, holder('recovery', process.pid), LONG_AGO);
    for (let i = 0; i < 3; i++) {
      expect(await s.claim('s', 'run_x')).toEqual({
        granted: false,
        owner: `run_gone (pid ${ended} on ${hostname()}, which has ended; pid ${process.pid} is removing that lock file right now: try again)`,
      });
    }
    expect(await readFile(guard, 'utf8')).toBe(holder('recovery', process.pid));
    expect(await readFile(file, 'utf8')).toBe(holder('run_gone', ended));
    await rm(guard); // the recoverer done: the dead lock goes at the next claim
    await granted(s);
  });

  it('an empty or cut lock: refused while it may be being written, recovered once over a minute old', async () => {
    const s = store();
    for (const text of ['', '{"owner":"run_cut","pid":12']) {
      const file = await plant(s, lockOf(s), text);
      expect(await s.claim('s', 'run_x')).toMatchObject({ granted: false, owner: expect.stringContaining(`the lock file ${file} is being written right now`) });
      expect(await readFile(file, 'utf8')).toBe(text);
      const old = new Date(Date.now() - 61_000);
      await utimes(file, old, old);
      await granted(s);
    }
  });

  it('old text that is no cut lock (not JSON, an array, over 4 KB, a whole lock with bad fields, with or without its end of line) stays refused and untouched', async () => {
    const s = store();
    const whole = `${JSON.stringify({ owner: 'run\u001b[2J', pid: 12, host: hostname(), startedAt: 1, token: 't' })}\n`;
    for (const text of ['not json', '[1,2]', `{"owner":"${'x'.repeat(5000)}`, whole, whole.trim()]) {
      const file = await plant(s, lockOf(s), text, LONG_AGO);
      expect(await s.claim('s', 'run_x')).toMatchObject({ granted: false, owner: expect.stringContaining(`the lock file ${file} is not one rxharness writes: if no rxharness process uses this session, delete it`) });
      expect(await readFile(file, 'utf8')).toBe(text);
    }
  });

  it('an empty guard (being written, or its recoverer killed between making and writing it): refused while fresh, removed once old', async () => {
    const s = store();
    const ended = endedPid();
    const file = await plant(s, lockOf(s), holder('run_gone', ended));
    const guard = await plant(s, `${file}.recover`, '');
    expect(await s.claim('s', 'run_x')).toEqual({
      granted: false,
      owner: `run_gone (pid ${ended} on ${hostname()}, which has ended; another process is removing that lock file right now: try again)`,
    });
    expect(await readFile(guard, 'utf8')).toBe('');
    await utimes(guard, LONG_AGO, LONG_AGO);
    await granted(s);
  });

  it('a guard of the guard left by a dead process: refused, naming the three files (no race-free way past it)', async () => {
    const s = store();
    const ended = endedPid();
    const file = await plant(s, lockOf(s), holder('run_gone', ended));
    await plant(s, `${file}.recover`, holder('recovery', endedPid()));
    await plant(s, `${file}.recover.recover`, holder('recovery', endedPid()));
    expect(await s.claim('s', 'run_x')).toEqual({
      granted: false,
      owner: `run_gone (pid ${ended} on ${hostname()}, which has ended; its stale recovery guard is being removed by another process, or that stopped too: try again; if no rxharness process uses this session, delete ${file}, ${file}.recover and ${file}.recover.recover)`,
    });
    expect((await readdir(s.dir)).sort()).toEqual(['s.lock', 's.lock.recover', 's.lock.recover.recover']);
    await rm(`${file}.recover.recover`);
    await granted(s);
  });

  it('many claimers at once over a stale lock and a dead or unwritten guard: exactly one is granted, every round', async () => {
    // One store per path (links to the workspace): this process's own claims, keyed by path,
    // do not see each other, so only the lock files keep the claimers apart.
    const aliases = await Promise.all(Array.from({ length: 15 }, (_, i) => symlinkTo(fresh.ws.dir, `${fresh.ws.dir}-alias${i}`)));
    try {
      const stores = [store(), ...aliases.map((dir) => new FileSessionStore(dir, KEY))];
      const s = stores[0]!;
      for (let round = 0; round < 24; round++) {
        const lock = round % 3 === 0 ? holder('run_gone', endedPid()) : '';
        await plant(s, lockOf(s), lock, LONG_AGO);
        if (round % 2 === 0) await plant(s, `${lockOf(s)}.recover`, round % 4 === 0 ? holder('recovery', endedPid()) : '', LONG_AGO);
        // Started a few ticks apart, so some claimers judge the stale lock while others
        // already recover it, and some reach the guard only after that recovery ended.
        const claims: SessionClaim[] = await Promise.all(stores.map(async (one, i) => (await ticks((i * 7 + round * 3) % 40), one.claim('s', `run_${round}_${i}`))));
        expect(claims.filter((c) => c.granted), `round ${round}`).toHaveLength(1);
        for (const claim of claims) if (claim.granted) claim.release();
        expect(await readdir(s.dir), `round ${round}`).toEqual([]);
      }
    } finally {
      for (const alias of aliases) await rm(alias);
    }
  });
});

/** Waits `n` turns of the event loop. */
async function ticks(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

async function symlinkTo(target: string, path: string): Promise<string> {
  await symlink(target, path);
  return path;
}
