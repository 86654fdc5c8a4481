import { lastValueFrom, of, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { parseNdjson } from '../../src/adapters/ndjson.js';
import { AGENTS_HELP, MAIN_HELP, RUN_HELP } from '../../src/cli/help-text.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { sandboxPerTest } from './sandbox-per-test.js';
import { runCli, type CliResult } from './spawn-cli.js';

const sandbox = sandboxPerTest();

function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(args, { home: sandbox.home, cwd: sandbox.workspace.dir, env });
}

async function events(stdout: string): Promise<AgentEvent[]> {
  return lastValueFrom(of(stdout).pipe(parseNdjson(), toArray()));
}

describe('rxharness as a process: exit codes', () => {
  it('exits 0 on the demo and prints the three tasks and the final answer as plain lines', async () => {
    const result = await cli(['run', '--demo', 'Survey this project'], { RXHARNESS_DEMO_DELAY_MS: '0' });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    for (const line of ['[explore#1] task started: Map the layout', '[explore#2] task started: Find the docs', '[general#3] task started: Count TODO comments']) {
      expect(result.stdout).toContain(line);
    }
    expect(result.stdout.match(/^\[(explore#1|explore#2|general#3)\] task done/gm)).toHaveLength(3);
    expect(result.stdout).toMatch(/\[main\] run done \(.*\), final answer:\nSurvey complete\.\n1\. Map the layout: The workspace has 3 top-level entries/);
    expect(result.stdout).toContain('3. Count TODO comments: Found 1 TODO/FIXME lines in src/');
    // not a terminal: no escape sequences
    expect(result.stdout).not.toContain('\u001b');
  });

  it('exits 1 when the run ends abnormally (the model server answers 500)', async () => {
    const server = await sandbox.serve({
      handler: () => ({ status: 500, errorMessage: 'the model is down', headers: { 'retry-after-ms': '0' } }),
    });
    const result = await cli(['run', '--model', 'm', '--base-url', server.baseURL, 'hi'], { OPENAI_API_KEY: 'x' });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^\[main\] run failed: .*the model is down/m);
    expect(server.requests.length).toBeGreaterThan(0);
  });

  it('exits 1 with --json too, the abnormal RunEnd being the last line', async () => {
    const server = await sandbox.serve({ handler: () => ({ status: 500, headers: { 'x-should-retry': 'false' } }) });
    const result = await cli(['run', '--json', '--model', 'm', '--base-url', server.baseURL, 'hi'], { OPENAI_API_KEY: 'x' });
    expect(result.code).toBe(1);
    const last = (await events(result.stdout)).at(-1);
    expect(last).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: true });
  });

  it('takes the base URL and model from OPENAI_BASE_URL and RXHARNESS_MODEL', async () => {
    const server = await sandbox.serve();
    const result = await cli(['run', 'hello there'], { OPENAI_API_KEY: 'x', OPENAI_BASE_URL: server.baseURL, RXHARNESS_MODEL: 'env-model' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('You said: hello there');
    expect(server.requests[0]?.body.model).toBe('env-model');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer x');
  });

  it('exits 2 on an unknown @agent, listing the agents, without calling the model', async () => {
    const server = await sandbox.serve();
    const result = await cli(['run', '--model', 'm', '--base-url', server.baseURL, '@nope', 'hi'], { OPENAI_API_KEY: 'x' });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('rxharness: unknown agent "nope"; available agents: bash, explore, general, plan\n');
    expect(result.stdout).toBe('');
    expect(server.requests).toHaveLength(0);
  });

  it('exits 2 on bad usage with the message on stderr', async () => {
    const result = await cli(['run', '--max-tasks', 'many', '--demo', 'hi']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe('rxharness: --max-tasks must be a whole number >= 0, got "many"\n');
  });
});

describe('rxharness as a process: @name', () => {
  it('"@explore prompt" runs the explore agent directly', async () => {
    const server = await sandbox.serve();
    const result = await cli(['run', '--json', '--model', 'm', '--base-url', server.baseURL, '@explore', 'where are the tests?'], { OPENAI_API_KEY: 'x' });
    expect(result.code).toBe(0);
    const all = await events(result.stdout);
    expect(all[0]).toMatchObject({ type: 'RunStart', agentName: 'explore', prompt: 'where are the tests?' });
    expect(all.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'explore', abnormal: false, text: 'You said: where are the tests?' });
    expect(server.requests).toHaveLength(1);
    const system = String(server.requests[0]?.body.messages?.[0]?.content);
    expect(system).toContain('codebase exploration specialist');
    // explore is read-only and cannot delegate
    const tools = (server.requests[0]?.body.tools ?? []).map((t) => t.function?.name).sort();
    expect(tools).toEqual(['glob', 'grep', 'list', 'read']);
  });
});

describe('rxharness as a process: --help', () => {
  it.each([
    [['--help'], MAIN_HELP],
    [['run', '--help'], RUN_HELP],
    [['agents', '--help'], AGENTS_HELP],
  ])('%j prints its help and exits 0', async (args, help) => {
    expect(await cli(args)).toEqual({ code: 0, signal: null, stdout: help, stderr: '' });
  });
});
