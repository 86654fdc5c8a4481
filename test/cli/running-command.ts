/**
 * The CLI as a real process (from the sources) whose model runs one `bash` command, for the
 * tests of what the process's signals do to the commands its runs started. Those commands run
 * each in its own process group and session (the bash tool), so no signal sent to the CLI, nor
 * the hang-up of its terminal, reaches them: only the CLI can stop them.
 *
 * @module
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { isAlive } from '../support/handle-counts.js';
import { sandboxPerTest, type SandboxPerTest } from './sandbox-per-test.js';
import { spawnSourceCli, type CliProcess } from './spawn-cli.js';

/** How long a process may take to start or to answer a signal on a loaded machine. */
export const DEADLINE_MS = 60_000;

/** A CLI process whose model's command runs. */
export interface RunningCommand {
  readonly cli: CliProcess;
  /** The command's shell: the leader of its process group. */
  readonly group: number;
}

/** What {@link runningCommands} gives each test. */
export interface CommandRuns {
  /** The test's workspace and home (made anew for each test). */
  readonly sandbox: SandboxPerTest;
  /** A fake model server whose first answer runs `command` in `bash`, then answers "done"; its base URL. */
  model(command: string): Promise<string>;
  /** Starts `rxharness ...args` from the sources, in the sandbox's home. */
  spawn(args: readonly string[], env?: Readonly<Record<string, string>>): CliProcess;
  /** Waits until the command wrote its shell's pid (and a newline) to `pid` in the workspace. */
  group(cli: CliProcess): Promise<number>;
  /** `rxharness run --yes` whose model runs `command` (which writes `echo $$ > pid`), once the command runs. */
  start(command: string): Promise<RunningCommand>;
}

/**
 * Registers the hooks that make a sandbox and, after the test, kill what it left running (the
 * CLI, and the command's process group: a failing test must not leave it behind either), close
 * the model server and remove the sandbox.
 */
export function runningCommands(): CommandRuns {
  const sandbox = sandboxPerTest();
  const clis: CliProcess[] = [];
  const groups: number[] = [];
  // Registered after the sandbox's hooks, so it runs first: nothing may still use the sandbox or the server.
  afterEach(() => {
    for (const { child } of clis.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const group of groups.splice(0)) if (isAlive(-group)) process.kill(-group, 'SIGKILL');
  });
  const runs: CommandRuns = {
    sandbox,
    async model(command) {
      let calls = 0;
      const server = await sandbox.serve({
        handler: () => (calls++ === 0 ? { toolCalls: [{ name: 'bash', arguments: { command } }] } : { text: 'done' }),
      });
      return server.baseURL;
    },
    spawn(args, env = {}) {
      const cli = spawnSourceCli(args, { home: runs.sandbox.home, cwd: runs.sandbox.workspace.dir, env: { OPENAI_API_KEY: 'x', ...env } });
      clis.push(cli);
      return cli;
    },
    async group(cli) {
      const pidFile = join(runs.sandbox.workspace.dir, 'pid');
      const started = await waitUntil(async () => {
        if (cli.child.exitCode !== null || cli.child.signalCode !== null) return true;
        return (await readFile(pidFile, 'utf8').catch(() => '')).endsWith('\n');
      }, DEADLINE_MS);
      const text = await readFile(pidFile, 'utf8').catch(() => '');
      if (!started || !text.endsWith('\n')) throw new Error(`the command did not start; stderr: ${cli.stderr()}`);
      groups.push(Number(text));
      return Number(text);
    },
    async start(command) {
      const baseURL = await runs.model(command);
      const cli = runs.spawn(['run', '--yes', '--workspace', runs.sandbox.workspace.dir, '--model', 'm', '--base-url', baseURL, 'go']);
      return { cli, group: await runs.group(cli) };
    },
  };
  return runs;
}

/** Checks `done` every 50 ms until it holds or `ms` have passed; whether it held. */
export async function waitUntil(done: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/**
 * Whether a process of group `pgid` still runs. A zombie does not count: it has ended, and
 * waits for whoever adopted it (the shell died first) to reap it, which init may do late.
 */
export function groupRuns(pgid: number): boolean {
  if (!existsSync('/proc/self/stat')) return isAlive(-pgid);
  return readdirSync('/proc').some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      return false; // gone meanwhile
    }
    // After the command's name in parentheses (which may hold spaces): state, ppid, pgrp.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(pgrp) === pgid && state !== 'Z';
  });
}

/** Waits (up to {@link DEADLINE_MS}) for the process group `pgid` to have no running process left. */
export function groupGone(pgid: number): Promise<boolean> {
  return waitUntil(() => !groupRuns(pgid), DEADLINE_MS);
}
