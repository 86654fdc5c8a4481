import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { isAlive } from '../support/handle-counts.js';
import { cliSandbox, type CliSandbox } from './cli-sandbox.js';

// A closed terminal sends the CLI SIGHUP. The model's commands run in sessions of their own
// (the bash tool), so they hear no hang-up: only the CLI can stop them. Run from the sources,
// as a real process, so the process's own signal handling is what is tested.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

let sandbox: CliSandbox;
let server: FakeOpenAIServer | undefined;
let cli: ChildProcess | undefined;
let group: number | undefined;
beforeEach(async () => {
  sandbox = await cliSandbox();
});
afterEach(async () => {
  if (cli && cli.exitCode === null && cli.signalCode === null) cli.kill('SIGKILL');
  // A failing test must not leave the commands behind either.
  if (group !== undefined && isAlive(-group)) process.kill(-group, 'SIGKILL');
  cli = group = undefined;
  await server?.close();
  await sandbox.cleanup();
});

/**
 * Starts `rxharness run --yes` whose model runs `command`, which writes its shell's pid (the
 * leader of its process group) to `pid`; resolves once that is written.
 */
async function runningCommand(command: string): Promise<{ ended: Promise<Ended>; stderr: () => string }> {
  let calls = 0;
  server = await FakeOpenAIServer.start({
    handler: () => (calls++ === 0 ? { toolCalls: [{ name: 'bash', arguments: { command } }] } : { text: 'done' }),
  });
  const args = ['run', '--yes', '--workspace', sandbox.workspace.dir, '--model', 'm', '--base-url', server.baseURL, 'go'];
  // From the repository's root, where `tsx` resolves.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: sandbox.home, OPENAI_API_KEY: 'x' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  cli = child;
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const ended = new Promise<Ended>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
  const pidFile = join(sandbox.workspace.dir, 'pid');
  for (let waited = 0; group === undefined; waited += 50) {
    if (waited > 60_000 || child.exitCode !== null) throw new Error(`the command did not start; stderr: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const text = await readFile(pidFile, 'utf8').catch(() => '');
    if (text.endsWith('\n')) group = Number(text);
  }
  return { ended, stderr: () => stderr };
}

/**
 * Whether a process of group `pgid` still runs. A zombie does not count: it has ended, and
 * waits for whoever adopted it (the shell died first) to reap it, which init may do late.
 */
function groupRuns(pgid: number): boolean {
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

/** Waits up to `ms` for the process group `pgid` to have no running process left. */
async function groupGone(pgid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 50) {
    if (!groupRuns(pgid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !groupRuns(pgid);
}

describe('rxharness run: the SIGHUP of a closed terminal', () => {
  it('cancels the run and stops its commands, then ends by SIGHUP (a shell reports 129)', async () => {
    // Two processes in the command's group: one in the background, one in the foreground.
    const { ended } = await runningCommand('sleep 300 & echo $$ > pid; sleep 300');
    expect(groupRuns(group!)).toBe(true);
    cli!.kill('SIGHUP');
    const result = await ended;
    expect(result, result.stderr).toMatchObject({ code: null, signal: 'SIGHUP' });
    expect(result.stderr).toContain('Cancelled (SIGHUP).');
    expect(await groupGone(group!, 10_000)).toBe(true);
  }, 90_000);

  it('a second SIGHUP while a command that ignores SIGTERM is being stopped leaves it killed, quietly', async () => {
    const { ended, stderr } = await runningCommand("trap '' TERM INT HUP; echo $$ > pid; while :; do sleep 0.2; done");
    cli!.kill('SIGHUP');
    // Once the run is stopped (it says so), the command is in its 2 s SIGTERM grace: hang up
    // again then, as a shell passing on the hang-up to its jobs does.
    for (let waited = 0; !stderr().includes('Cancelled (SIGHUP).') && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 300));
    cli!.kill('SIGHUP');
    const result = await ended;
    expect(result, result.stderr).toMatchObject({ code: null, signal: 'SIGHUP' });
    // Nothing written to a terminal that is gone, but the one line of the first hang-up.
    expect(result.stderr).not.toContain('still stopping');
    expect(await groupGone(group!, 10_000)).toBe(true);
  }, 90_000);
});
