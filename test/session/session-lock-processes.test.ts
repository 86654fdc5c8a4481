/**
 * `FileSessionStore.claim` holds across processes: two processes sharing one sessions folder
 * (two `rxharness run --session X`, two `serve`) never hold one conversation at once, and a
 * holder killed with SIGKILL (no chance to release) does not keep it for ever.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionBusyError } from '../../src/agent/session-busy-error.js';
import { forgettingSessions } from '../../src/engine/forgetting-sessions.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { sessionLockFile } from '../../src/session/session-lock-file.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

const SCRIPT = fileURLToPath(new URL('./lock-claim-process.ts', import.meta.url));
/** Each child loads the harness through tsx first: seconds, more on a busy machine. */
const TIMEOUT_MS = 90_000;

interface Child {
  readonly process: ChildProcess;
  /** Resolves with the first stdout line (from now on, or already printed) matching `pattern`. */
  line(pattern: RegExp): Promise<string>;
  send(line: string): void;
}

const children: ChildProcess[] = [];
const workspaces: TestWorkspace[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
  }
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

async function workspace(): Promise<TestWorkspace> {
  const ws = await makeWorkspace();
  workspaces.push(ws);
  return ws;
}

function start(ws: TestWorkspace, owner: string): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, WORKSPACE: ws.dir, SESSION: 's', OWNER: owner } });
  children.push(child);
  let out = '';
  let err = '';
  const waiting = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const check of [...waiting]) check();
  });
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return {
    process: child,
    send: (line) => void child.stdin!.write(`${line}\n`),
    line: (pattern) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const found = out.split('\n').find((l) => pattern.test(l));
          if (found === undefined) return;
          waiting.delete(check);
          resolve(found);
        };
        waiting.add(check);
        child.once('exit', (code, signal) => reject(new Error(`child ${owner} exited (${String(code ?? signal)}) before ${String(pattern)}: ${out}${err}`)));
        check();
      }),
  };
}

async function locks(ws: TestWorkspace): Promise<string[]> {
  return (await readdir(`${ws.dir}/.rxharness/sessions`).catch(() => [])).filter((name) => name.includes('.lock'));
}

describe('FileSessionStore claims across processes', () => {
  it('two processes racing for one session: exactly one is granted, the other is told who holds it', { timeout: TIMEOUT_MS }, async () => {
    const ws = await workspace();
    const one = start(ws, 'run_one');
    const two = start(ws, 'run_two');
    await Promise.all([one.line(/^ready$/), two.line(/^ready$/)]);
    one.send('go');
    two.send('go');
    const answers = await Promise.all([one.line(/^(granted|refused|failed)/), two.line(/^(granted|refused|failed)/)]);
    expect(answers.filter((a) => a === 'granted')).toHaveLength(1);
    const [winner, loser] = answers[0] === 'granted' ? (['run_one', answers[1]] as const) : (['run_two', answers[0]] as const);
    // The loser may read the lock while the winner is still writing it: then it is told so, to try again.
    expect(loser).toMatch(
      new RegExp(`^refused (?:${winner} \\(pid \\d+ on .*, still running; its lock file is .*s\\.lock\\)|unknown \\(the lock file .*s\\.lock is being written right now, .*try again\\))$`),
    );

    // This process is refused too while the winner lives, and so is a delete of the conversation.
    const store = new FileSessionStore(ws.dir, { grantKey: 'lock-test-key' });
    expect(await store.claim('s', 'run_here')).toMatchObject({ granted: false, owner: expect.stringContaining(winner) });
    await expect(forgettingSessions(store, () => undefined).delete!('s')).rejects.toBeInstanceOf(SessionBusyError);

    // Released by its holder: free for anyone, and no lock is left.
    const holder = answers[0] === 'granted' ? one : two;
    holder.send('release');
    await holder.line(/^released$/);
    expect(await locks(ws)).toEqual([]);
    const mine = await store.claim('s', 'run_here');
    expect(mine.granted).toBe(true);
    if (mine.granted) mine.release();
    expect(await locks(ws)).toEqual([]);
  });

  it('a holder killed with SIGKILL leaves a lock that the next claim recovers; a delete recovers it too', { timeout: TIMEOUT_MS }, async () => {
    const ws = await workspace();
    const store = new FileSessionStore(ws.dir, { grantKey: 'lock-test-key' });
    for (const next of ['claim', 'delete'] as const) {
      const child = start(ws, `run_killed_${next}`);
      await child.line(/^ready$/);
      child.send('go');
      expect(await child.line(/^(granted|refused|failed)/)).toBe('granted');
      const exited = new Promise((resolve) => child.process.once('exit', resolve));
      child.process.kill('SIGKILL');
      await exited;
      const lock = sessionLockFile(store.dir, 's');
      expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ owner: `run_killed_${next}`, pid: child.process.pid });

      if (next === 'claim') {
        const claim = await store.claim('s', 'run_after');
        expect(claim.granted).toBe(true);
        expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ owner: 'run_after', pid: process.pid });
        if (claim.granted) claim.release();
      } else {
        await store.append('s', [{ role: 'user', content: 'hello' }]);
        await forgettingSessions(store, () => undefined).delete!('s');
        expect(await store.load('s')).toEqual([]);
      }
      expect(await locks(ws)).toEqual([]);
    }
  });
});
