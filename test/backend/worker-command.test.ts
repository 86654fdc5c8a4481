import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { redisBackend } from '../../src/backend/redis-backend.js';
import { main } from '../../src/cli/main.js';
import { WORKER_HELP } from '../../src/cli/help-text.js';
import { createDemoModel } from '../../src/demo/demo-model.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { cliSandbox, type CliSandbox } from '../cli/cli-sandbox.js';
import { HAS_REDIS, freePort, startRedis, type RedisServer } from './redis-server.js';
import { waitFor } from './scale-kit.js';

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = await cliSandbox();
});
afterEach(() => sandbox.cleanup());

describe('rxharness worker: usage', () => {
  it('--help prints its help; the main help names the command', async () => {
    const cli = sandbox.io();
    expect(await main(['worker', '--help'], cli)).toBe(0);
    expect(cli.stdoutText()).toBe(WORKER_HELP);
    const help = sandbox.io();
    await main(['--help'], help);
    expect(help.stdoutText()).toContain('rxharness worker --redis URL');
  });

  it.each([
    [['worker', '--demo'], 'no Redis: pass --redis URL'],
    [['worker', '--redis', 'redis://127.0.0.1:1', '--demo', '--concurrency', '0'], '--concurrency must be a whole number >= 1'],
    [['worker', '--redis', 'redis://127.0.0.1:1', '--demo', 'a prompt'], 'worker takes no PROMPT'],
  ])('%j is bad usage: exit 2', async (argv, message) => {
    const cli = sandbox.io();
    expect(await main(argv, cli)).toBe(2);
    expect(cli.stderrText()).toContain(message);
  });

  it('no Redis: the message names every form --redis takes, not only redis://', async () => {
    const cli = sandbox.io();
    expect(await main(['worker', '--demo'], cli)).toBe(2);
    const said = cli.stderrText();
    for (const form of ['redis://[USER:PASSWORD@]HOST:PORT', 'rediss:// for TLS', 'HOST:PORT, a port', 'the absolute path of a Unix socket']) expect(said).toContain(form);
  });

  it('an unreachable Redis is exit 1, saying so', async () => {
    const cli = sandbox.io();
    const port = await freePort();
    expect(await main(['worker', '--redis', `redis://127.0.0.1:${port}`, '--demo'], cli)).toBe(1);
    expect(cli.stderrText()).toContain(`cannot reach Redis at redis://127.0.0.1:${port}`);
    expect(cli.interruptListeners()).toBe(0);
  });
});

describe.skipIf(!HAS_REDIS)('rxharness worker', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it("runs an engine's delegated tasks until Ctrl+C", async () => {
    const cli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '0' });
    const exit = main(['worker', '--redis', redis.url, '--prefix', 'cli', '--demo', '--workspace', sandbox.workspace.dir], cli);
    await waitFor(() => cli.stdoutText().includes('pulling tasks'), 10_000);
    const backend = await redisBackend({ url: redis.url, prefix: 'cli' });
    const engine = new HarnessEngine({ model: createDemoModel({ chunkDelayMs: 0 }), backend, distributeTasks: true, workspace: sandbox.workspace.dir, homeDir: sandbox.home });
    try {
      const result = await engine.call('Survey this project');
      expect(result.abnormal).toBe(false);
      expect(result.metrics.tasks).toBeGreaterThan(0);
    } finally {
      await engine.close();
      await backend.close();
    }
    cli.interrupt();
    expect(await exit).toBe(0);
    expect(cli.interruptListeners()).toBe(0);
  });

  it('serve --redis: a run started over HTTP on one instance, its tasks on a worker, is attachable from another', async () => {
    const workerCli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '0' });
    const worker = main(['worker', '--redis', redis.url, '--prefix', 'serve', '--demo'], workerCli);
    await waitFor(() => workerCli.stdoutText().includes('pulling tasks'), 10_000);
    // instances behind one address share one token
    const token = 'shared-by-both-instances-1';
    const auth = { authorization: `Bearer ${token}` };
    const serveCli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '0', RXHARNESS_TOKEN: token });
    const serve = main(['serve', '--demo', '--port', '0', '--redis', redis.url, '--prefix', 'serve', '--distribute'], serveCli);
    await serveCli.waitForStdout('rxharness serve: ');
    const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(serveCli.stdoutText())![0];
    const started = await fetch(`${url}api/runs`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ prompt: 'Survey this project' }) });
    expect(started.status).toBe(201);
    const { runId } = (await started.json()) as { runId: string };
    // An SSE client of a second instance follows the run to its end.
    const secondCli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '0', RXHARNESS_TOKEN: token });
    const second = main(['serve', '--demo', '--port', '0', '--redis', redis.url, '--prefix', 'serve'], secondCli);
    await secondCli.waitForStdout('rxharness serve: ');
    const url2 = /http:\/\/127\.0\.0\.1:\d+\//.exec(secondCli.stdoutText())![0];
    const sse = await (await fetch(`${url2}api/runs/${runId}/events`, { headers: auth })).text();
    expect(sse).toContain('"type":"TaskWrap"');
    expect(sse.trimEnd()).toMatch(/event: end/);
    secondCli.interrupt();
    expect(await second).toBe(0);
    const backend = await redisBackend({ url: redis.url, prefix: 'serve' });
    const other = new HarnessEngine({ model: createDemoModel({ chunkDelayMs: 0 }), backend, workspace: sandbox.workspace.dir, homeDir: sandbox.home });
    try {
      await waitFor(() => other.runs.get(runId) !== undefined);
      const events = await lastValueFrom(other.runs.attach(runId).pipe(toArray()));
      expect(events.at(-1)!.event).toMatchObject({ type: 'RunEnd', abnormal: false });
      expect(events.some((e) => e.event.type === 'TaskWrap')).toBe(true);
    } finally {
      await other.close();
      await backend.close();
    }
    serveCli.interrupt();
    workerCli.interrupt();
    expect(await serve).toBe(0);
    expect(await worker).toBe(0);
  });
});
