import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { isAlive } from '../support/handle-counts.js';
import { cliSandbox, type CliSandbox } from './cli-sandbox.js';

// The model's commands run each in its own process group and session (the bash tool), so no
// signal sent to the CLI reaches them: only the CLI can stop them. Run from the sources, as
// a real process, so the process's own signal handling is what is tested.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let sandbox: CliSandbox;
let server: FakeOpenAIServer;
let cli: ChildProcess | undefined;
let commandPid: number | undefined;
beforeEach(async () => {
  sandbox = await cliSandbox();
});
afterEach(async () => {
  if (cli && cli.exitCode === null && cli.signalCode === null) cli.kill('SIGKILL');
  // A failing test must not leave the command behind either.
  if (commandPid !== undefined && isAlive(commandPid)) process.kill(-commandPid, 'SIGKILL');
  cli = commandPid = undefined;
  await server.close();
  await sandbox.cleanup();
});

/** Starts `rxharness run --yes` whose model runs `command` (which writes its shell's pid to `pid`), once it runs. */
async function runningCommand(command: string): Promise<{ exited: Promise<{ code: number | null; signal: string | null; stderr: string }> }> {
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
  const exited = new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  const pidFile = join(sandbox.workspace.dir, 'pid');
  for (let waited = 0; commandPid === undefined; waited += 50) {
    if (waited > 30_000 || child.exitCode !== null) throw new Error(`the command did not start; stderr: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const text = await readFile(pidFile, 'utf8').catch(() => '');
    if (text.endsWith('\n')) commandPid = Number(text);
  }
  return { exited };
}

/** Waits up to `ms` for `pid` to be gone. */
async function gone(pid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 50) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}

describe('rxharness run: signals stop the commands the run started', () => {
  it('SIGTERM cancels the run as Ctrl+C does: the command is stopped and the exit code is 143', async () => {
    const { exited } = await runningCommand('echo $$ > pid; exec sleep 300');
    cli!.kill('SIGTERM');
    const result = await exited;
    expect(result, result.stderr).toMatchObject({ code: 143, signal: null });
    expect(result.stderr).toContain('Cancelled (SIGTERM).');
    expect(await gone(commandPid!, 1_000)).toBe(true);
  }, 60_000);

  it('a second Ctrl+C while a command that ignores SIGTERM is being stopped does not leave it running', async () => {
    const { exited } = await runningCommand("trap '' TERM INT; echo $$ > pid; while :; do sleep 0.2; done");
    cli!.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 300));
    cli!.kill('SIGINT');
    const result = await exited;
    expect(result).toMatchObject({ code: 130, signal: null });
    expect(result.stderr).toContain('still stopping the commands its runs started');
    expect(await gone(commandPid!, 1_000)).toBe(true);
  }, 60_000);
});
