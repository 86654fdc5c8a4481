/**
 * The CLI when whoever reads its output goes away early (`rxharness run --json ... | head -1`):
 * it must stop the run and exit quietly with 141 (128 + SIGPIPE, what a shell reports for
 * a command cut off by a closed pipe), not print a stack trace.
 */
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { sandboxPerTest } from './sandbox-per-test.js';
import { CLI_PATH, spawnCli, type CliProcess } from './spawn-cli.js';

/** Runs `node dist/cli.js ARGS | head -1` in bash with pipefail; resolves with what came out. */
function pipeToHead(args: string, options: { cwd: string; home: string }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const script = `set -o pipefail; "${process.execPath}" "${CLI_PATH}" ${args} | head -1`;
    const shell = spawn('bash', ['-c', script], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: options.home, RXHARNESS_DEMO_DELAY_MS: '5' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    shell.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    shell.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    shell.on('error', reject);
    shell.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('rxharness run | head -1', () => {
  const sandbox = sandboxPerTest();

  it('--json: prints the first event, then exits 141 without a stack trace', async () => {
    const result = await pipeToHead('run --json --demo "Survey this project"', { cwd: sandbox.workspace.dir, home: sandbox.home });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(141);
    expect(JSON.parse(result.stdout)).toMatchObject({ type: 'RunStart', agentName: 'main' });
  });

  it('plain lines: the same', async () => {
    const result = await pipeToHead('run --demo "Survey this project"', { cwd: sandbox.workspace.dir, home: sandbox.home });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(141);
    expect(result.stdout).toBe('[main] tool multitask ×3 started\n');
  });
});

describe('rxharness agents | head -1', () => {
  const sandbox = sandboxPerTest();
  beforeEach(async () => {
    // Broken definitions whose diagnostics (each naming its file) come to more than a pipe
    // holds (64 KiB), so the CLI is still writing when head goes away. Discovery reads 256
    // files of a folder at most: 256 long names make about 100 KB or more (short ones made 41 KB,
    // which fit in the pipe, and the test then raced head).
    const long = 'x'.repeat(240);
    await Promise.all(Array.from({ length: 256 }, (_, i) => sandbox.workspace.file(`.rxharness/agents/a${i}-${long}.md`, '---\nname: [broken\n---\nbody\n')));
  });

  it('plain lines: prints the first, then exits 141 without a stack trace, as run does', async () => {
    const result = await pipeToHead('agents', { cwd: sandbox.workspace.dir, home: sandbox.home });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(141);
    expect(result.stdout).toMatch(/^bash +\[builtin\] /);
  });

  it('--json: the same', async () => {
    const result = await pipeToHead('agents --json', { cwd: sandbox.workspace.dir, home: sandbox.home });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(141);
    expect(result.stdout).toBe('{\n');
  });
});

describe('rxharness run: stdout closed early', () => {
  let fixture: DelegationFixture;
  let cli: CliProcess | undefined;
  beforeEach(async () => {
    // the main agent streams its answer one character every 20 ms: about 20 s in all
    fixture = await startDelegationFixture({ main: () => ({ text: 'x'.repeat(1000), chunkSize: 1, chunkDelayMs: 20 }) });
  });
  afterEach(async () => {
    if (cli && cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
    cli = undefined;
    await fixture.close();
  });

  it('stops the run (its model request is aborted) and exits 141 quietly', async () => {
    cli = spawnCli(['run', '--json', '--model', 'm', '--base-url', fixture.server.baseURL, 'survey'], {
      home: fixture.home,
      cwd: fixture.workspace.dir,
      env: { OPENAI_API_KEY: 'x' },
    });
    await cli.waitForStdout('"ReasonDelta"');
    cli.child.stdout!.destroy();
    const result = await cli.exited;
    expect(result).toMatchObject({ code: 141, signal: null, stderr: '' });
    expect(await fixture.server.waitForClosed(0)).toMatchObject({ aborted: true });
    expect(fixture.server.inFlight).toBe(0);
  });

  it('plain lines: the same', async () => {
    // every step calls a tool (a line as it starts, one as it ends), 300 ms apart, for 100 steps
    fixture.route({ main: () => ({ toolCalls: [{ name: 'list', arguments: { path: '.' } }], delayMs: 300 }) });
    cli = spawnCli(['run', '--max-steps', '100', '--model', 'm', '--base-url', fixture.server.baseURL, 'survey'], {
      home: fixture.home,
      cwd: fixture.workspace.dir,
      env: { OPENAI_API_KEY: 'x' },
    });
    await cli.waitForStdout('[main] tool list done');
    cli.child.stdout!.destroy();
    const result = await cli.exited;
    expect(result).toMatchObject({ code: 141, signal: null, stderr: '' });
    // the next line failed and stopped the run: a step or two, not a hundred
    expect(fixture.server.requests.length).toBeLessThan(5);
    expect(fixture.server.inFlight).toBe(0);
  });
});
