/**
 * Arguments no person types but a script can pass: a megabyte, a NUL, control characters,
 * a flag given twice. Each ends with one line on stderr (exit 2 for bad usage), never a
 * stack trace, and never echoes more than a shown error's cut.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { MAX_SHOWN_ERROR_CHARS } from '../../src/cli/shown-error.js';
import { sandboxPerTest } from './sandbox-per-test.js';

const sandbox = sandboxPerTest();

async function cli(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; stderr: string; stdout: string }> {
  const io = sandbox.io({ OPENAI_API_KEY: '', RXHARNESS_DEMO_DELAY_MS: '0', ...env });
  const code = await main(argv, io);
  return { code, stderr: io.stderrText(), stdout: io.stdoutText() };
}

/** One line, "rxharness: " and at most a shown error's length, no stack frame. */
function expectOneBoundedLine(stderr: string): void {
  expect(stderr).toMatch(/^rxharness: [^\n]*\n$/);
  expect(stderr.length).toBeLessThanOrEqual('rxharness: \n'.length + MAX_SHOWN_ERROR_CHARS);
  expect(stderr).not.toMatch(/\bat .*:\d+:\d+/);
}

const MB = 'x'.repeat(1_000_000);

describe('a value of a megabyte', () => {
  it.each([
    [['run', '--demo', '--max-steps', MB, 'hi'], '--max-steps must be'],
    [['run', '--demo', '--workspace', MB, 'hi'], 'does not exist'],
    [['run', '--demo', '--mcp-config', MB, 'hi'], '--mcp-config'],
    [['run', '--model', 'm', '--base-url', 'http://127.0.0.1:1/v1', '--tool-choice', MB, 'hi'], '--tool-choice must be'],
    [['serve', '--demo', '--token', MB], '--token must be a secret of 16 to 512 characters'],
    [['serve', '--demo', MB], 'serve takes no PROMPT'],
    [[MB], 'unknown command'],
    [['run', '--demo', `--demo=${MB}`, 'hi'], "'--demo' does not take an argument"],
  ])('%#: exit 2, one line saying what is wrong, cut', async (argv, says) => {
    const { code, stderr, stdout } = await cli(argv);
    expect(code).toBe(2);
    expectOneBoundedLine(stderr);
    expect(stderr).toContain(says);
    expect(stdout).toBe('');
  });

  it('--pass-env with an unset name of a megabyte warns in one line, cut as an error is', async () => {
    const { code, stderr } = await cli(['run', '--demo', '--pass-env', MB, 'hi']);
    expect(code).toBe(0);
    expectOneBoundedLine(stderr);
    expect(stderr).toMatch(/characters cut .*: not set here, so the commands do not get it\n$/);
  });
});

describe('a NUL or control characters in a value', () => {
  it.each([
    [['run', '--demo', '--workspace', 'a\0b', 'hi'], 'a<U+0000>b'],
    [['run', '--demo', '--mcp-config', 'a\0b\u001b[2J', 'hi'], 'a<U+0000>b<U+001B>[2J'],
    [['run', '--demo', '--pass-env', 'A\0B', 'hi'], 'is not a variable name'],
  ])('%j: exit 2, one line, the characters marked', async (argv, says) => {
    const { code, stderr } = await cli(argv);
    expect(code).toBe(2);
    expectOneBoundedLine(stderr);
    expect(stderr).toContain(says);
    expect(stderr).not.toMatch(/[\u0000\u001b]/);
  });

  it('a prompt holding a NUL and an escape sequence runs', async () => {
    const { code, stderr } = await cli(['run', '--demo', 'survey\0 this\u001b[2J']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });

});

describe('a Redis URL that is no URL (a space, a NUL)', () => {
  it.each([
    [['worker', '--demo', '--redis', 'redis://:from-a-vault@ho st:6379'], {}, '--redis'],
    [['worker', '--demo'], { RXHARNESS_REDIS_URL: 'redis://:from-a-vault@ho\0st:6379' }, 'RXHARNESS_REDIS_URL'],
    [['serve', '--demo', '--port', '0', '--redis', 'redis://:from-a-vault@ho st:6379'], {}, '--redis'],
  ])('%j: bad usage naming where it came from, not repeating it', async (argv, env, source) => {
    const { code, stderr } = await cli(argv, env);
    expect(code).toBe(2);
    expect(stderr).not.toContain('from-a-vault');
    expect(stderr).toBe(`rxharness: ${source} is not a URL Redis can be reached at: give it as redis://[USER:PASSWORD@]HOST:PORT, e.g. redis://127.0.0.1:6379\n`);
  });
});

describe('a flag given twice', () => {
  it('the last one counts (an alias\'s default can be overridden), and a bad last one is named', async () => {
    expect((await cli(['run', '--demo', '--max-steps', 'x', '--max-steps', '5', 'hi'])).code).toBe(0);
    const { code, stderr } = await cli(['serve', '--demo', '--port', '1', '--port', 'x']);
    expect(code).toBe(2);
    expect(stderr).toBe('rxharness: --port must be a whole number >= 0, got "x"\n');
  });
});
