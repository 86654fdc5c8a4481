import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { fromRun, startRun } from '../../src/client/index.js';
import { freePort } from '../backend/redis-server.js';
import { envEcho } from './env-echo.js';

// `serve` builds its engine from the same flags as `run`: `--pass-env NAME` gives the model's
// bash commands NAME on top of the default (everything but OPENAI_API_KEY), and a bad name is
// bad usage before anything listens.

const KEY = 'sk-serve-key-0123456789';
const PASSED = 'passed-value-7';
const TOKEN = 'serve-pass-env-token-1';

const echo = envEcho({ OPENAI_API_KEY: KEY, RXH_SERVE_PASSED: PASSED });

/** `rxharness serve --yes` with `flags`; one run over HTTP; the bash call's output, the IO and the exit code. */
async function serveOneRun(...flags: string[]) {
  const cli = echo.io();
  const code = main(['serve', '--yes', '--model', 'm', '--base-url', echo.server.baseURL, '--port', '0', '--token', TOKEN, ...flags], cli);
  await cli.waitForStdout('rxharness serve: ');
  const api = `${/http:\/\/127\.0\.0\.1:\d+\//.exec(cli.stdoutText())![0]}api`;
  const { runId } = await startRun(api, { prompt: 'go' }, { token: TOKEN });
  const events = await lastValueFrom(fromRun(api, runId, { token: TOKEN }).pipe(toArray()));
  cli.interrupt();
  const ends = events.map((e) => e.event).filter((e) => e.type === 'ToolCallEnd' && e.toolName === 'bash');
  return { output: ends.map((e) => ('text' in e ? String(e.text) : '')).join('\n'), cli, code: await code };
}

describe('rxharness serve --pass-env NAME', () => {
  it('without it, the commands lack OPENAI_API_KEY but get the other variables', async () => {
    const { output, code } = await serveOneRun();
    expect(code).toBe(0);
    expect(output).toContain('OPENAI_API_KEY=-\n');
    expect(output).toContain(`RXH_SERVE_PASSED=${PASSED}\n`);
    expect(output).not.toContain(KEY);
  });

  it('with --pass-env OPENAI_API_KEY, the commands of a run started over HTTP see the key', async () => {
    const { output, code, cli } = await serveOneRun('--pass-env', 'OPENAI_API_KEY');
    expect(code).toBe(0);
    expect(output).toContain(`OPENAI_API_KEY=${KEY}\n`);
    expect(cli.stderrText()).not.toContain('--pass-env');
  });

  it('a name that is not set is said on stderr, and the server serves', async () => {
    const { output, code, cli } = await serveOneRun('--pass-env', 'RXH_SERVE_NOT_SET');
    expect(code).toBe(0);
    expect(output).toContain('OPENAI_API_KEY=-\n');
    expect(cli.stderrText()).toContain('rxharness: --pass-env RXH_SERVE_NOT_SET: not set here, so the commands do not get it\n');
  });

  it.each([
    [['--pass-env', 'FOO=bar'], '--pass-env "FOO=bar" is not a variable name'],
    [['--pass-env', '1X'], '--pass-env "1X" is not a variable name'],
    [['--pass-env', ''], '--pass-env needs a value, got an empty one'],
    [['--pass-env', 'RXHARNESS_TOKEN'], "--pass-env RXHARNESS_TOKEN: rxharness's own credentials"],
    [['--pass-env', 'RXHARNESS_REDIS_URL'], "--pass-env RXHARNESS_REDIS_URL: rxharness's own credentials"],
  ])('%j is bad usage, exit 2 naming it, and nothing listens', async (flags, message) => {
    const cli = echo.sandbox.io();
    expect(await main(['serve', '--demo', '--port', '0', ...flags], cli)).toBe(2);
    expect(cli.stderrText()).toContain(message);
    expect(cli.stdoutText()).toBe('');
    expect(cli.interruptListeners()).toBe(0);
  });

  it('a bad name is found before Redis is reached: exit 2, not the 1 of an unreachable Redis', async () => {
    const cli = echo.sandbox.io();
    const redis = `redis://127.0.0.1:${await freePort()}`;
    expect(await main(['serve', '--demo', '--port', '0', '--redis', redis, '--pass-env', 'A-B'], cli)).toBe(2);
    expect(cli.stderrText()).toBe('rxharness: --pass-env "A-B" is not a variable name (letters, digits and _, not starting with a digit); pass one name per flag, e.g. --pass-env OPENAI_API_KEY\n');
  });
});
