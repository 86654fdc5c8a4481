import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { HeadTailBuffer } from './head-tail-buffer.js';
import { COMMAND_TAG, signalTagged } from './tagged-processes.js';

/** How to run one shell command. */
export interface RunCommandOptions {
  readonly command: string;
  readonly cwd: string;
  /** The shell binary; it gets `-c command`. */
  readonly shell: string;
  readonly timeoutMs: number;
  /** Time between SIGTERM and SIGKILL when the command is stopped. */
  readonly killGraceMs: number;
  /** Output kept at most (half from the start, half from the end). */
  readonly maxOutputChars: number;
  /** Aborting it stops the command. */
  readonly signal: AbortSignal;
  /** The command's environment (see `commandEnvironment`); the tag it is stopped by is added. */
  readonly env: NodeJS.ProcessEnv;
}

/** How a command ended. */
export interface CommandOutcome {
  /** stdout and stderr interleaved as they arrived, capped with a marker. */
  readonly output: string;
  /** The shell's exit code; null when it was killed by a signal or never started. */
  readonly exitCode: number | null;
  /** The signal that killed the shell, if any. */
  readonly exitSignal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** True when processes the command left running in the background were killed. */
  readonly stoppedLeftovers: boolean;
  /** Set when the shell could not be started at all. */
  readonly spawnError?: Error;
}

/**
 * Runs a command in its own process group and session (`detached: true`) and leaves nothing
 * behind: on timeout or abort the whole group gets SIGTERM, then SIGKILL after the grace;
 * when the shell exits, whatever it left in its group is killed too. A process that left the
 * group with `setsid` (a daemon, a double fork) is found by the tag every process of the
 * command inherits in its environment ({@link COMMAND_TAG}) and killed the same way, on
 * Linux; one that also clears its environment (`env -i`) escapes. The command gets `env`
 * and the tag. Timers and listeners are released before the promise settles; it never rejects.
 *
 * @example
 * ```ts
 * const outcome = await runCommand({
 *   command: 'npm test', cwd: '/repo', shell: '/bin/sh', timeoutMs: 60_000,
 *   killGraceMs: 2_000, maxOutputChars: 30_000, signal: AbortSignal.timeout(120_000),
 *   env: commandEnvironment(),
 * });
 * ```
 */
export function runCommand(options: RunCommandOptions): Promise<CommandOutcome> {
  const { signal } = options;
  const output = new HeadTailBuffer(Math.ceil(options.maxOutputChars / 2), Math.floor(options.maxOutputChars / 2));
  const base = { exitCode: null, exitSignal: null, timedOut: false, stoppedLeftovers: false };
  if (signal.aborted) return Promise.resolve({ ...base, output: '', aborted: true });

  return new Promise((resolve) => {
    const tag = randomUUID();
    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = spawn(options.shell, ['-c', options.command], {
        cwd: options.cwd,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...options.env, [COMMAND_TAG]: tag },
      });
    } catch (error) {
      // Some failures throw here rather than on 'error' (a working folder that is a file: ENOTDIR).
      resolve({ ...base, output: '', aborted: false, spawnError: error instanceof Error ? error : new Error(String(error)) });
      return;
    }
    const timers = new Set<NodeJS.Timeout>();
    let stopping: 'timeout' | 'abort' | undefined;
    let exited = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let stoppedLeftovers = false;
    let settled = false;

    const later = (ms: number, action: () => void): void => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        action();
      }, ms);
      timers.add(timer);
    };
    const killGroup = (name: NodeJS.Signals): boolean => {
      if (child.pid === undefined) return false;
      let signalled: boolean;
      try {
        process.kill(-child.pid, name);
        signalled = true;
      } catch {
        signalled = false; // the group is already gone
      }
      // Processes that left the group (setsid) still carry the command's tag.
      return signalTagged(tag, name) > 0 || signalled;
    };
    const stop = (why: 'timeout' | 'abort'): void => {
      if (stopping || exited) return;
      stopping = why;
      killGroup('SIGTERM');
      later(options.killGraceMs, () => killGroup('SIGKILL'));
    };
    const onAbort = (): void => stop('abort');
    const finish = (spawnError?: Error): void => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      signal.removeEventListener('abort', onAbort);
      resolve({
        output: output.toString(),
        exitCode,
        exitSignal,
        timedOut: stopping === 'timeout',
        aborted: stopping === 'abort',
        stoppedLeftovers,
        ...(spawnError ? { spawnError } : {}),
      });
    };

    signal.addEventListener('abort', onAbort, { once: true });
    later(options.timeoutMs, () => stop('timeout'));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => output.append(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => output.append(chunk));
    child.once('exit', (code, name) => {
      exited = true;
      exitCode = code;
      exitSignal = name;
      // The shell is gone; anything still in its group was left behind by the command.
      const killed = killGroup('SIGKILL');
      if (!stopping) stoppedLeftovers = killed;
      // A process that left the group (setsid) may hold the pipes open: do not wait for it.
      later(options.killGraceMs, () => {
        child.stdout.destroy();
        child.stderr.destroy();
      });
    });
    child.once('close', () => finish());
    child.once('error', (error) => finish(error));
  });
}
