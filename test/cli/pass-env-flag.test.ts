import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { envEcho } from './env-echo.js';

// The model's bash commands go without OPENAI_API_KEY by default; `--pass-env NAME` gives
// them the named variables on purpose. The bash tool reads the process's environment, so
// the variables are set there (and in the CLI's, which says which names are unset).

const KEY = 'sk-cli-key-0123456789';
const OTHER = 'other-secret-42';

const echo = envEcho({ OPENAI_API_KEY: KEY, RXH_TEST_OTHER: OTHER });

/** Runs `rxharness run --yes --json ... go` and returns the exit code, the bash call's output and the IO. */
async function run(...flags: string[]) {
  const cli = echo.io();
  const code = await main(['run', '--yes', '--json', '--model', 'm', '--base-url', echo.server.baseURL, ...flags, 'go'], cli);
  const ends = cli
    .stdoutText()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; toolName?: string; text?: string })
    .filter((e) => e.type === 'ToolCallEnd' && e.toolName === 'bash');
  return { code, output: ends.map((e) => e.text).join('\n'), cli };
}

describe('rxharness run --pass-env NAME', () => {
  it('without it, the commands do not get OPENAI_API_KEY but get the other variables', async () => {
    const { code, output } = await run();
    expect(code).toBe(0);
    expect(output).toContain('OPENAI_API_KEY=-\n');
    expect(output).toContain(`RXH_TEST_OTHER=${OTHER}\n`);
    expect(output).not.toContain(KEY);
  });

  it('with --pass-env OPENAI_API_KEY, a command the model runs sees the key', async () => {
    const { code, output, cli } = await run('--pass-env', 'OPENAI_API_KEY');
    expect(code).toBe(0);
    expect(output).toContain(`OPENAI_API_KEY=${KEY}\n`);
    expect(output).toContain(`RXH_TEST_OTHER=${OTHER}\n`);
    expect(cli.stderrText()).toBe('');
  });

  it('passes exactly the names given: another name leaves the key out, and repeats add up', async () => {
    const other = await run('--pass-env', 'RXH_TEST_OTHER');
    expect(other.output).toContain('OPENAI_API_KEY=-\n');
    expect(other.output).not.toContain(KEY);
    const both = await run('--pass-env', 'RXH_TEST_OTHER', '--pass-env', 'OPENAI_API_KEY');
    expect(both.output).toContain(`OPENAI_API_KEY=${KEY}\n`);
  });

  it.each([['FOO=bar'], ['1X'], ['A-B'], ['OPENAI_API_KEY,RXH_TEST_OTHER']])('a bad name (%j) is bad usage naming it, and nothing runs', async (name) => {
    const { code, cli } = await run('--pass-env', 'OPENAI_API_KEY', '--pass-env', name);
    expect(code).toBe(2);
    expect(cli.stderrText()).toContain(`--pass-env ${JSON.stringify(name)} is not a variable name`);
    expect(echo.server.requests).toHaveLength(0);
  });

  it("rxharness's own credentials are bad usage: no command ever gets them", async () => {
    const { code, cli } = await run('--pass-env', 'RXHARNESS_TOKEN');
    expect(code).toBe(2);
    expect(cli.stderrText()).toContain("--pass-env RXHARNESS_TOKEN: rxharness's own credentials");
    expect(echo.server.requests).toHaveLength(0);
  });

  it('a name that is not set is said on stderr, and the run goes on', async () => {
    const { code, cli } = await run('--pass-env', 'RXH_TEST_NOT_SET');
    expect(code).toBe(0);
    expect(cli.stderrText()).toBe('rxharness: --pass-env RXH_TEST_NOT_SET: not set here, so the commands do not get it\n');
  });

  it('agents does not take it (it runs no command)', async () => {
    const cli = echo.sandbox.io();
    expect(await main(['agents', '--pass-env', 'OPENAI_API_KEY'], cli)).toBe(2);
    expect(cli.stderrText()).toContain('unknown option --pass-env');
  });
});
