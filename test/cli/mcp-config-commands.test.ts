import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENTS_HELP, RUN_HELP, SERVE_HELP, WORKER_HELP } from '../../src/cli/help-text.js';
import { main } from '../../src/cli/main.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { marksFile, type Marks } from '../mcp/support/mcp-configs.js';
import { sandboxPerTest } from './sandbox-per-test.js';
import { echoCaller, toolsOffered, writeMcpConfig } from './mcp-config-support.js';

const sandbox = sandboxPerTest();
let marks: Marks;
beforeEach(async () => {
  marks = await marksFile();
});
afterEach(() => marks.cleanup());

describe('the engine flags shared by run, serve and worker', () => {
  it('every engine-building command documents the same model and engine flags', () => {
    for (const help of [RUN_HELP, SERVE_HELP, WORKER_HELP]) {
      for (const flag of ['--demo', '--model M', '--base-url URL', '--api-key K', '--workspace DIR', '--max-tasks N', '--max-steps N', '--max-depth N', '--agent-dir DIR', '--mcp-config FILE']) {
        expect(help).toContain(`\n  ${flag}`);
      }
    }
    expect(AGENTS_HELP).toContain('--mcp-config FILE');
  });

  it.each([
    // serve and worker took neither --max-depth nor --agent-dir before: both are parsed now.
    [['serve', '--demo', '--agent-dir', 'team', '--max-depth', 'x'], '--max-depth must be a whole number >= 0, got "x"'],
    [['serve', '--demo', '--max-tasks', 'many'], '--max-tasks must be a whole number >= 0, got "many"'],
    [['serve', '--demo', '--port', '0', '--mcp-config', 'missing.json'], '--mcp-config missing.json: no such file'],
    [['serve', '--demo', '--port', '0', '--mcp-config', 'bad.json'], '--mcp-config bad.json: `mcpServers.fs` must have either `command`'],
    // Port 1 of 127.0.0.1 answers nothing: had the worker got that far, it would exit 1, not 2.
    [['worker', '--redis', 'redis://127.0.0.1:1', '--demo', '--agent-dir', 'team', '--max-depth', 'x'], '--max-depth must be a whole number >= 0, got "x"'],
    [['worker', '--redis', 'redis://127.0.0.1:1', '--demo', '--max-steps', '0'], '--max-steps must be a whole number >= 1, got "0"'],
    [['worker', '--redis', 'redis://127.0.0.1:1', '--demo', '--mcp-config', 'bad.json'], '--mcp-config bad.json: `mcpServers.fs` must have either `command`'],
    [['agents', '--mcp-config', 'bad.json'], '--mcp-config bad.json: `mcpServers.fs` must have either `command`'],
  ])('%j is bad usage (exit 2) before anything starts or connects', async (argv, message) => {
    await sandbox.workspace.file('bad.json', '{ "mcpServers": { "fs": { "args": ["x"] } } }');
    const cli = sandbox.io();
    expect(await main(argv, cli)).toBe(2);
    expect(cli.stderrText()).toContain(`rxharness: ${message}`);
    expect(cli.stderrText()).not.toContain('Redis');
    expect(cli.interruptListeners()).toBe(0);
  });

  it('agents checks --mcp-config without starting its servers', async () => {
    await writeMcpConfig(sandbox.workspace, 'mcp.json', { test: marks.env });
    const cli = sandbox.io();
    expect(await main(['agents', '--mcp-config', 'mcp.json'], cli)).toBe(0);
    expect(cli.stdoutText()).toContain('explore');
    expect(await marks.lines()).toEqual([]);
  });

  it('serve --mcp-config: a run started over HTTP gets the server’s tools', async () => {
    const model = await FakeOpenAIServer.start({ handler: echoCaller });
    try {
      await writeMcpConfig(sandbox.workspace, 'mcp.json', { test: marks.env });
      const cli = sandbox.io({ OPENAI_API_KEY: 'test-key' });
      const code = main(['serve', '--model', 'm', '--base-url', model.baseURL, '--port', '0', '--max-depth', '0', '--mcp-config', 'mcp.json'], cli);
      await cli.waitForStdout('rxharness serve: ');
      // The address carries the server's token once; programs send it as a Bearer header.
      const [, url, token] = /(http:\/\/127\.0\.0\.1:\d+\/)\?token=([\w-]+)/.exec(cli.stdoutText())!;
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${token!}` };
      const started = await fetch(`${url!}api/runs`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'echo something' }) });
      expect(started.status).toBe(201);
      await model.waitForRequests(2, 20_000);
      const [first, second] = model.requests;
      expect(toolsOffered(first!)).toContain('mcp__test__echo');
      // --max-depth 0 reached the engine too: no delegation tools.
      expect(toolsOffered(first!)).not.toContain('task');
      expect(String(second!.body.messages!.at(-1)!.content)).toBe('echo: from the model');
      cli.interrupt();
      expect(await code).toBe(0);
    } finally {
      await model.close();
    }
  }, 30_000);
});
