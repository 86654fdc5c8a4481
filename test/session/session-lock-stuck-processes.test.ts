/**
 * Processes racing over a stuck session lock: a dead process's lock, with a recovery guard
 * left by a recoverer that died too (or never wrote it). However their steps interleave,
 * exactly one is granted, and the others are refused naming who holds the session, or
 * saying to try again (the lock or guard is changing hands that very instant).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { sessionLockFile } from '../../src/session/session-lock-file.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const SCRIPT = fileURLToPath(new URL('./lock-claim-process.ts', import.meta.url));
/** Each child loads the harness through tsx first: seconds, more on a busy machine. */
const TIMEOUT_MS = 120_000;
const CLAIMERS = 4;

const fresh = toolContextPerTest();
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
});

/** A claimer (lock-claim-process.ts); `next` resolves its next whole stdout line matching `pattern` (each line answers once). */
function claimer(owner: string): { send(line: string): void; next(pattern: RegExp): Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, WORKSPACE: fresh.ws.dir, SESSION: 's', OWNER: owner } });
  children.push(child);
  let out = '';
  let err = '';
  let seen = 0;
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const changed = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const check of [...changed]) check();
  });
  return {
    send: (line) => void child.stdin!.write(`${line}\n`),
    next: (pattern) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const lines = out.split('\n');
          const at = lines.findIndex((l, i) => i >= seen && i < lines.length - 1 && pattern.test(l));
          if (at < 0) return;
          seen = at + 1;
          changed.delete(check);
          resolve(lines[at]!);
        };
        changed.add(check);
        child.once('exit', (code, signal) => reject(new Error(`${owner} exited (${String(code ?? signal)}) before ${String(pattern)}: ${out}${err}`)));
        check();
      }),
  };
}

/** A lock's text naming `pid` on this machine, as `lock-holder.ts` writes it. */
function lockOf(owner: string, pid: number): string {
  let identity = {};
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    identity = { processStart: stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19], pidNamespace: readlinkSync('/proc/self/ns/pid') };
  } catch {
    // no /proc: the lock records no more, as this module's own would
  }
  return `${JSON.stringify({ owner, pid, host: hostname(), ...identity, startedAt: 1, token: `t-${owner}` })}\n`;
}

describe('processes racing over a stuck session lock', () => {
  it('a dead lock and a dead, then an unwritten, guard: exactly one of several processes is granted', { timeout: TIMEOUT_MS }, async () => {
    const store = new FileSessionStore(fresh.ws.dir, { grantKey: 'lock-test-key' });
    const file = sessionLockFile(store.dir, 's');
    const ended = (): number => spawnSync(process.execPath, ['-e', '']).pid!;
    const claimers = Array.from({ length: CLAIMERS }, (_, i) => claimer(`run_${i}`));
    await Promise.all(claimers.map((c) => c.next(/^ready$/)));
    const longAgo = new Date(Date.now() - 10 * 60_000);
    for (const guard of [lockOf('recovery', ended()), '']) {
      await mkdir(store.dir, { recursive: true });
      await writeFile(file, lockOf('run_gone', ended()));
      await writeFile(`${file}.recover`, guard);
      await utimes(`${file}.recover`, longAgo, longAgo);
      for (const c of claimers) c.send('go');
      const answers = await Promise.all(claimers.map((c) => c.next(/^(granted|refused|failed)/)));
      expect(answers.filter((a) => a === 'granted'), answers.join('\n')).toHaveLength(1);
      expect(answers.filter((a) => a.startsWith('failed'))).toEqual([]);
      const winner = answers.indexOf('granted');
      for (const answer of answers.filter((a) => a !== 'granted')) expect(answer).toMatch(/^refused (run_gone|unknown) .*try again|^refused run_\d \(pid \d+ on .*, still running/);
      claimers[winner]!.send('release');
      await claimers[winner]!.next(/^released$/);
      expect(await readdir(store.dir)).toEqual([]); // the stale lock and guard gone, the winner's released
    }
  });
});
