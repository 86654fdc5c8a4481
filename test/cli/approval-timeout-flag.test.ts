import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { approvalTimeoutOption, SERVE_APPROVAL_TIMEOUT_MS } from '../../src/cli/approval-timeout-flag.js';
import { CliUsageError } from '../../src/cli/cli-usage-error.js';
import { main } from '../../src/cli/main.js';
import { fromRun, startRun, toUiItem } from '../../src/client/index.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { sandboxPerTest } from './sandbox-per-test.js';

const sandbox = sandboxPerTest();

describe('--approval-timeout', () => {
  it('serve waits 10 minutes by default, run as long as it takes; a duration or 0 (for ever) overrides either', () => {
    expect(SERVE_APPROVAL_TIMEOUT_MS).toBe(600_000);
    expect(approvalTimeoutOption(undefined, SERVE_APPROVAL_TIMEOUT_MS)).toEqual({ approvalTimeoutMs: 600_000 });
    expect(approvalTimeoutOption(undefined, undefined)).toEqual({});
    expect(approvalTimeoutOption('2m', SERVE_APPROVAL_TIMEOUT_MS)).toEqual({ approvalTimeoutMs: 120_000 });
    expect(approvalTimeoutOption('90s', undefined)).toEqual({ approvalTimeoutMs: 90_000 });
    expect(approvalTimeoutOption('0', SERVE_APPROVAL_TIMEOUT_MS)).toEqual({});
  });

  it('longer than a timer holds (2,147,483,647 ms) is bad usage: Node would fire it after 1 ms', async () => {
    expect(approvalTimeoutOption('35791m', undefined)).toEqual({ approvalTimeoutMs: 2_147_460_000 });
    expect(() => approvalTimeoutOption('40000m', undefined)).toThrow(CliUsageError);
    const cases = [
      ['40000m', ['run', '--demo', '--approval-timeout', '40000m', 'hi']],
      ['2147483648ms', ['serve', '--demo', '--approval-timeout', '2147483648ms']],
    ] as const;
    for (const [raw, argv] of cases) {
      const cli = sandbox.io();
      expect(await main(argv, cli)).toBe(2);
      expect(cli.stderrText()).toContain(`--approval-timeout must be at most 2147483647ms (35791m, about 24.8 days: the longest a timer holds), got "${raw}"`);
    }
  });

  it.each([
    [['serve', '--demo', '--approval-timeout', 'soon']],
    [['run', '--demo', '--approval-timeout', '5 minutes', 'hi']],
  ])('%j is bad usage naming the flag', async (argv) => {
    const cli = sandbox.io();
    expect(await main(argv, cli)).toBe(2);
    expect(cli.stderrText()).toContain('--approval-timeout must be a duration: seconds (60 or 60s), milliseconds (500ms) or minutes (2m)');
  });

  it('serve with a deadline: a bash call nobody approves is rejected as timed out, and the model reads why', async () => {
    const fake = await FakeOpenAIServer.start({
      handler: (request) => {
        const tool = (request.body.messages ?? []).find((m) => m.role === 'tool');
        return tool ? { text: `final: ${String(tool.content)}` } : { toolCalls: [{ name: 'bash', arguments: { command: 'echo never-approved' } }] };
      },
    });
    const token = 'approval-timeout-test-token';
    const cli = sandbox.io();
    const code = main(['serve', '--model', 'm', '--base-url', fake.baseURL, '--port', '0', '--token', token, '--approval-timeout', '1ms'], cli);
    try {
      await cli.waitForStdout('rxharness serve: ');
      const api = `${/http:\/\/127\.0\.0\.1:\d+\//.exec(cli.stdoutText())![0]}api`;
      const { runId } = await startRun(api, { prompt: 'run it' }, { token });
      const items = (await lastValueFrom(fromRun(api, runId, { token }).pipe(toArray()))).flatMap(({ event }) => toUiItem(event) ?? []);
      expect(items.find((i) => i.kind === 'approval-decided')).toMatchObject({ decision: 'reject', timedOut: true });
      const result = items.find((i) => i.kind === 'result');
      expect(result).toMatchObject({ text: expect.stringContaining('final: ERROR: The bash call did not run: it timed out waiting for approval') });
      expect(items.some((i) => i.kind === 'tool-end' && i.text.includes('never-approved\n'))).toBe(false);
    } finally {
      cli.interrupt();
      expect(await code).toBe(0);
      await fake.close();
    }
  });
});
