import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { HAS_REDIS, freePort, startRedis, type RedisServer } from '../backend/redis-server.js';
import { sandboxPerTest } from './sandbox-per-test.js';
import { DEADLINE_MS } from './running-command.js';
import { spawnSourceCli, type CliProcess } from './spawn-cli.js';

// `worker` builds its engine from `run`'s flags: `--pass-env` is checked as `run` checks it,
// before Redis is reached; and a worker whose terminal is closed (SIGHUP) stops as on Ctrl+C,
// then ends by that signal.

const sandbox = sandboxPerTest();
let cli: CliProcess | undefined;
// Runs before the sandbox goes (hooks run last-registered first): the process may still use it.
afterEach(() => {
  if (cli && cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
  cli = undefined;
});

describe('rxharness worker --pass-env NAME: usage', () => {
  // Nothing listens on the port: a worker that reached for Redis would exit 1, not 2.
  it.each([
    ['FOO=bar', '--pass-env "FOO=bar" is not a variable name'],
    ['1X', '--pass-env "1X" is not a variable name'],
    ['RXHARNESS_REDIS_URL', "--pass-env RXHARNESS_REDIS_URL: rxharness's own credentials"],
    ['RXHARNESS_A2A_TOKEN', "--pass-env RXHARNESS_A2A_TOKEN: rxharness's own credentials"],
  ])('%j is bad usage, exit 2 naming it, before Redis is reached', async (name, message) => {
    const io = sandbox.io();
    expect(await main(['worker', '--redis', `redis://127.0.0.1:${await freePort()}`, '--demo', '--pass-env', name], io)).toBe(2);
    expect(io.stderrText()).toContain(message);
    expect(io.stderrText()).not.toContain('Redis');
    expect(io.interruptListeners()).toBe(0);
  });

  it('a good name goes on to Redis (here unreachable: exit 1), after saying it is not set', async () => {
    const io = sandbox.io();
    const port = await freePort();
    expect(await main(['worker', '--redis', `redis://127.0.0.1:${port}`, '--demo', '--pass-env', 'RXH_WORKER_NOT_SET'], io)).toBe(1);
    expect(io.stderrText()).toContain('rxharness: --pass-env RXH_WORKER_NOT_SET: not set here, so the commands do not get it\n');
    expect(io.stderrText()).toContain(`cannot reach Redis at redis://127.0.0.1:${port}`);
  });
});

describe.skipIf(!HAS_REDIS)('rxharness worker on a real Redis (a real process)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('takes --pass-env, pulls tasks, and on SIGHUP stops, then ends by that signal (a shell reports 129)', async () => {
    const args = ['worker', '--redis', redis.url, '--demo', '--workspace', sandbox.workspace.dir, '--pass-env', 'RXH_WORKER_PASSED'];
    cli = spawnSourceCli(args, { home: sandbox.home, cwd: sandbox.workspace.dir, env: { RXH_WORKER_PASSED: 'yes' } });
    await cli.waitForStdout('rxharness worker: ');
    expect(cli.stdout()).toContain(`pulling tasks from ${redis.url} (concurrency 10, workspace ${sandbox.workspace.dir}; Ctrl+C stops it)`);
    cli.child.kill('SIGHUP');
    const result = await cli.exited;
    expect(result, result.stderr).toMatchObject({ code: null, signal: 'SIGHUP', stderr: '\nStopping: failing the tasks running here and closing the connections...\n' });
  }, 3 * DEADLINE_MS);
});
