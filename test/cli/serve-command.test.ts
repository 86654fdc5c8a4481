import { createServer } from 'node:http';
import { filter, firstValueFrom, map } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { SERVE_HELP } from '../../src/cli/help-text.js';
import { answerApproval, fromRun, startRun, type HITLPendingEvent } from '../../src/client/index.js';
import { listen } from '../http/http-kit.js';
import { turnOf } from '../support/delegation-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { answerOf, slowBody, type SlowBody } from '../support/slow-body.js';
import { sandboxPerTest } from './sandbox-per-test.js';

const CONTROL_TOKEN = 'max-control-requests-token-1';

const sandbox = sandboxPerTest();

describe('rxharness serve: usage', () => {
  it('--help prints its help and exits 0; the main help names the command', async () => {
    const cli = sandbox.io();
    expect(await main(['serve', '--help'], cli)).toBe(0);
    expect(cli.stdoutText()).toBe(SERVE_HELP);
    expect(SERVE_HELP).toContain('--base-url URL');
    const help = sandbox.io();
    await main(['--help'], help);
    expect(help.stdoutText()).toContain('rxharness serve [options]');
  });

  it.each([
    [['serve', '--port', '70000'], '--port must be a whole number from 0 to 65535, got "70000"'],
    [['serve', '--port', 'x'], '--port must be a whole number >= 0, got "x"'],
    [['serve', '--demo', 'a prompt'], 'serve takes no PROMPT'],
    [['serve'], 'no model: pass --model M or set RXHARNESS_MODEL'],
    [['serve', '--demo', '--max-steps', '0'], '--max-steps must be a whole number >= 1'],
    [['serve', '--demo', '--port', '0', '--host', 'not a host name'], 'rxharness: '],
    [['serve', '--demo', '--token', 'short'], '--token must be a secret of 16 to 512 characters'],
    [['serve', '--demo', '--max-runs', '0'], '--max-runs must be a whole number >= 1'],
    [['serve', '--demo', '--max-control-requests', '0'], '--max-control-requests must be a whole number >= 1, got "0"'],
    [['serve', '--demo', '--max-control-requests=-1'], '--max-control-requests must be a whole number >= 1, got "-1"'],
    [['serve', '--demo', '--max-control-requests', 'x'], '--max-control-requests must be a whole number >= 1, got "x"'],
    [['serve', '--demo', '--max-control-requests', '-1'], 'one that starts with "-" as --max-control-requests=-1'],
    [['serve', '--demo', '--port', '0', '--host', '0.0.0.0'], 'refusing to serve on 0.0.0.0 (0.0.0.0) without a token of your choosing'],
  ])('%j is bad usage: exit 2 with what to change', async (argv, message) => {
    const cli = sandbox.io();
    expect(await main(argv, cli)).toBe(2);
    expect(cli.stderrText()).toContain(message);
    expect(cli.interruptListeners()).toBe(0);
  });

  it('a port in use is exit 1, saying so', async () => {
    const busy = createServer();
    const url = await listen(busy);
    try {
      const cli = sandbox.io();
      expect(await main(['serve', '--demo', '--port', new URL(url).port], cli)).toBe(1);
      expect(cli.stderrText()).toMatch(/^rxharness: port \d+ is in use: pick another with --port/);
    } finally {
      busy.close();
    }
  });

  it('in-process: prints the address, serves until Ctrl+C, then closes and removes its listener', async () => {
    const cli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '0' });
    const code = main(['serve', '--demo', '--port', '0'], cli);
    await cli.waitForStdout('rxharness serve: ');
    const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(cli.stdoutText())![0];
    expect(cli.stdoutText()).toMatch(/^rxharness serve: http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32} {2}\(the offline demo model, workspace /);
    expect((await fetch(url)).status).toBe(200);
    cli.interrupt();
    expect(await code).toBe(0);
    expect(cli.stderrText()).toBe('\nStopping: cancelling the runs and closing the server...\n');
    expect(cli.interruptListeners()).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });
});

describe('rxharness serve: the token and the limits', () => {
  it('RXHARNESS_TOKEN (or --token) is the token; --host 0.0.0.0 with it listens, with a warning', async () => {
    const token = 'a-token-from-the-environment';
    const cli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '0', RXHARNESS_TOKEN: token });
    const code = main(['serve', '--demo', '--port', '0', '--host', '0.0.0.0'], cli);
    await cli.waitForStdout('rxharness serve: ');
    expect(cli.stdoutText()).toMatch(new RegExp(`^rxharness serve: http://0\\.0\\.0\\.0:\\d+/\\?token=${token} `));
    expect(cli.stderrText()).toMatch(/^rxharness: warning: listening on every interface \(0\.0\.0\.0\), reachable from other machines: anyone with the token can run commands in /);
    const port = /:(\d+)\//.exec(cli.stdoutText())![1]!;
    const api = `http://127.0.0.1:${port}/api/runs`;
    const post = (headers: Record<string, string>) => fetch(api, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"prompt":"hi"}' });
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: `Bearer ${token}` })).status).toBe(201);
    cli.interrupt();
    expect(await code).toBe(0);
  });

  it('--max-runs N: one run more is answered 429', async () => {
    const fake = await FakeOpenAIServer.start({ handler: () => ({ hang: true }) });
    try {
      const cli = sandbox.io();
      const code = main(['serve', '--model', 'm', '--base-url', fake.baseURL, '--port', '0', '--max-runs', '1', '--token', 'max-runs-test-token-1'], cli);
      await cli.waitForStdout('rxharness serve: ');
      const api = `${/http:\/\/127\.0\.0\.1:\d+\//.exec(cli.stdoutText())![0]}api`;
      await startRun(api, { prompt: 'first' }, { token: 'max-runs-test-token-1' });
      await expect(startRun(api, { prompt: 'second' }, { token: 'max-runs-test-token-1' })).rejects.toMatchObject({ status: 429 });
      cli.interrupt();
      expect(await code).toBe(0);
    } finally {
      await fake.close();
    }
  });

  /**
   * `--max-control-requests N` bounds, on each route serve mounts that reads requests starting
   * no run (the page's approvals, A2A, AG-UI), the bodies read at once beside `--max-runs`.
   * Held open by bodies that never end, the N slots leave none for one more: `429`, unread.
   */
  it('--max-control-requests 1: a second body held open on each such route is refused 429 naming the bound; the approval is answered once the first is gone', async () => {
    // Every run calls bash once (which asks on the page: no --yes), then ends.
    const fake = await FakeOpenAIServer.start({
      handler: (request) => (turnOf(request).toolResults.length > 0 ? { text: 'done' } : { toolCalls: [{ name: 'bash', arguments: { command: 'echo asked' } }] }),
    });
    const held: SlowBody[] = [];
    const cli = sandbox.io();
    const argv = ['serve', '--model', 'm', '--base-url', fake.baseURL, '--port', '0', '--token', CONTROL_TOKEN, '--max-runs', '1', '--max-control-requests', '1'];
    const code = main(argv, cli);
    try {
      await cli.waitForStdout('rxharness serve: ');
      const origin = /http:\/\/127\.0\.0\.1:\d+/.exec(cli.stdoutText())![0];
      const api = `${origin}/api`;
      // The run waits for its approval, holding the one run slot: A2A and AG-UI requests are read on control slots.
      const { runId } = await startRun(api, { prompt: 'go' }, { token: CONTROL_TOKEN });
      const pending = await firstValueFrom(
        fromRun(api, runId, { token: CONTROL_TOKEN }).pipe(
          map(({ event }) => event),
          filter((event): event is HITLPendingEvent => event.type === 'HITLPending'),
        ),
      );
      const approve = `${api}/runs/${runId}/approvals/${pending.approvalId}`;
      const auth = { authorization: `Bearer ${CONTROL_TOKEN}` };
      // Each route has its own pool: one body held on each, the next on each is refused.
      for (const [url, start] of [[approve, '{"decision":'], [`${origin}/a2a`, '{"jsonrpc":"2.0","id":1,'], [`${origin}/ag-ui`, '{"threadId":']] as const) {
        const first = slowBody(url, start, 100_000, auth);
        held.push(first);
        await vi.waitFor(() => expect(first.sent).toBe(true));
        const refused = await answerOf(slowBody(url, start, 100_000, auth));
        expect(refused.status, url).toBe(429);
        expect(refused.headers['retry-after']).toBe('5');
        expect(refused.body).toContain('maxControlRequests');
      }
      // Nothing was lost: the first body gone, its slot comes back and the approval is answered.
      held[0]!.req.destroy();
      await vi.waitFor(() => answerApproval(api, runId, pending, 'approve', { token: CONTROL_TOKEN }), { timeout: 15_000 });
      await fake.waitForRequests(2, 15_000);
    } finally {
      for (const body of held) body.req.destroy();
      cli.interrupt();
      expect(await code).toBe(0);
      await fake.close();
    }
  }, 60_000);
});
