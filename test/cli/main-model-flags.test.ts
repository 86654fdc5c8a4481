import { describe, expect, it } from 'vitest';
import { MAIN_HELP, RUN_HELP, SERVE_HELP, WORKER_HELP } from '../../src/cli/help-text.js';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// The model's settings and retries from the command line: sent on the wire as the server
// reads them, checked with a clear message (exit code 2) before anything starts, and the same
// for run, serve and worker.

const sandbox = sandboxPerTest({ handler: () => ({ text: 'ok' }) });

const cli = async (command: string, ...args: string[]) => {
  const io = sandbox.io({ OPENAI_API_KEY: 'test-key', RXHARNESS_REDIS_URL: 'redis://127.0.0.1:1' });
  const code = await main([command, ...(command === 'run' ? ['--json'] : []), '--model', 'm', '--base-url', sandbox.server.baseURL, ...args], io);
  return { code, stderr: io.stderrText() };
};

describe('model settings flags', () => {
  it('run sends --max-tokens, --temperature, --tool-choice and --extra-body fields; --context-window is never sent', async () => {
    const { code } = await cli('run', '--max-tokens', '300', '--temperature', '0.2', '--tool-choice', 'tool:read', '--context-window', '8192', '--extra-body', '{"logit_bias":{"2":5},"top_k":20}', 'hi');
    expect(code).toBe(0);
    const body = sandbox.server.requests[0]!.body;
    expect(body).toMatchObject({ max_tokens: 300, temperature: 0.2, tool_choice: { type: 'function', function: { name: 'read' } }, logit_bias: { '2': 5 }, top_k: 20 });
    expect(JSON.stringify(body)).not.toMatch(/context_?window|8192/i);
  });

  it('--tool-choice takes auto, required and none as they are', async () => {
    await cli('run', '--tool-choice', 'required', 'hi');
    expect(sandbox.server.requests[0]!.body.tool_choice).toBe('required');
  });

  const bad: Array<[string[], RegExp]> = [
    [['--max-tokens', '0'], /--max-tokens must be a whole number >= 1, got "0"/],
    [['--temperature', '3'], /--temperature must be a number from 0 to 2, e\.g\. 0\.2, got "3"/],
    [['--temperature', 'warm'], /--temperature must be a number from 0 to 2/],
    [['--tool-choice', 'requried'], /--tool-choice must be auto, required, none or tool:NAME .*got "requried"/],
    [['--context-window', '100'], /--context-window must be a whole number >= 256, got "100"/],
    [['--extra-body', '{logit_bias: 1}'], /--extra-body must be a JSON object, e\.g\. .* but it is not JSON \(/],
    [['--extra-body', '[1]'], /--extra-body must be a JSON object, .*got a list/],
    [['--extra-body', '{"messages":[]}'], /--extra-body cannot set messages: the harness sends those itself/],
    [['--max-retries=-1'], /--max-retries must be a whole number >= 0/],
    [['--retry-budget', 'soon'], /--retry-budget must be a duration: seconds \(60 or 60s\), milliseconds \(500ms\) or minutes \(2m\), got "soon"/],
  ];
  for (const command of ['run', 'serve', 'worker']) {
    it(`${command}: each bad value is bad usage (exit 2) naming the flag, before any request, listener or Redis`, async () => {
      for (const [args, message] of bad) {
        const { code, stderr } = await cli(command, ...args, ...(command === 'run' ? ['hi'] : []));
        expect({ args, code }).toEqual({ args, code: 2 });
        expect(stderr).toMatch(message);
      }
      expect(sandbox.server.requests).toHaveLength(0);
    });
  }

  it('--demo takes none of them: said plainly', async () => {
    const io = sandbox.io();
    expect(await main(['run', '--demo', '--max-tokens', '10', 'hi'], io)).toBe(2);
    expect(io.stderrText()).toContain('--max-tokens set a --model\'s requests; the --demo model is scripted and takes none');
  });

  it('--max-retries and --retry-budget: a server answering 503 is retried as told', async () => {
    sandbox.server.setHandler(() => ({ status: 503, errorMessage: 'Loading model' }));
    const none = await cli('run', '--max-retries', '0', 'hi');
    expect(none.code).toBe(1);
    expect(sandbox.server.requests).toHaveLength(1);
    const budget = await cli('run', '--max-retries', '1', '--retry-budget', '1ms', 'hi');
    expect(budget.code).toBe(1);
    // One wait of at most 1 ms spends the budget: one retry, then the error says why it stopped.
    expect(sandbox.server.requests).toHaveLength(3);
  });

  it('the help of run, serve and worker lists them', () => {
    for (const help of [RUN_HELP, SERVE_HELP, WORKER_HELP]) {
      for (const flag of ['--max-tokens', '--temperature', '--tool-choice', '--context-window', '--extra-body', '--max-retries', '--retry-budget']) expect(help).toContain(flag);
    }
    expect(MAIN_HELP).toContain('rxharness run');
  });

  it('the help of run, serve and worker warns that --api-key shows in a command line, as --token does', () => {
    for (const help of [RUN_HELP, SERVE_HELP, WORKER_HELP]) {
      expect(help).toContain('Every local user can read a command line: prefer $OPENAI_API_KEY');
    }
  });
});
