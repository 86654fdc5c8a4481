import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { AGENTS_HELP, MAIN_HELP, RUN_HELP } from '../../src/cli/help-text.js';
import { sandboxPerTest } from './sandbox-per-test.js';

const sandbox = sandboxPerTest();

/** Runs main and expects bad usage: exit 2, nothing on stdout, the message on stderr. */
async function usageError(argv: string[], env: Record<string, string> = {}): Promise<string> {
  const cli = sandbox.io(env);
  expect(await main(argv, cli)).toBe(2);
  expect(cli.stdoutText()).toBe('');
  expect(cli.stderrText()).toMatch(/^rxharness: /);
  return cli.stderrText();
}

describe('rxharness help', () => {
  it.each([['--help'], ['-h'], ['help']])('%s prints the main help and exits 0', async (flag) => {
    const cli = sandbox.io();
    expect(await main([flag], cli)).toBe(0);
    expect(cli.stdoutText()).toBe(MAIN_HELP);
  });

  it('without a command prints the help on stderr and exits 2', async () => {
    const cli = sandbox.io();
    expect(await main([], cli)).toBe(2);
    expect(cli.stderrText()).toBe(MAIN_HELP);
    expect(cli.stdoutText()).toBe('');
  });

  it.each([
    [['run', '--help'], RUN_HELP],
    [['run', '-h', '--demo', 'ignored prompt'], RUN_HELP],
    [['agents', '--help'], AGENTS_HELP],
  ])('%j prints that command’s help and exits 0', async (argv, help) => {
    const cli = sandbox.io();
    expect(await main(argv, cli)).toBe(0);
    expect(cli.stdoutText()).toBe(help);
  });

  it('the command helps name every run flag and the exit codes', () => {
    for (const flag of ['--demo', '--model', '--base-url', '--workspace', '--max-tasks', '--max-steps', '--yes', '--json']) {
      expect(RUN_HELP).toContain(flag);
    }
    expect(RUN_HELP).toMatch(/Exit codes: 0 .* 1 .* 2 .* 130/s);
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const cli = sandbox.io();
    expect(await main(['--version'], cli)).toBe(0);
    expect(cli.stdoutText()).toBe(`${version}\n`);
  });
});

describe('rxharness bad usage (exit 2)', () => {
  it('names an unknown command and the known ones', async () => {
    expect(await usageError(['walk'])).toContain('unknown command "walk"; use "run", "agents", "serve" or "worker"');
  });

  it('run without a prompt says how to give one', async () => {
    expect(await usageError(['run', '--demo'])).toContain('run needs a PROMPT');
  });

  it('an unknown flag is named', async () => {
    expect(await usageError(['run', '--bogus', 'hi'])).toContain('unknown option --bogus (rxharness run --help lists them)');
    expect(await usageError(['agents', '--bogus'])).toContain('unknown option --bogus (rxharness agents --help lists them)');
  });

  it('a flag missing its value is reported', async () => {
    expect(await usageError(['run', 'hi', '--model'])).toContain('--model needs a value, but nothing follows it: give it as --model V');
  });

  it.each([
    [['--max-tasks', 'abc'], '--max-tasks must be a whole number >= 0, got "abc"'],
    [['--max-tasks=-1'], '--max-tasks must be a whole number >= 0, got "-1"'],
    [['--max-steps', '0'], '--max-steps must be a whole number >= 1, got "0"'],
    [['--max-steps', '2.5'], '--max-steps must be a whole number >= 1, got "2.5"'],
  ])('%j is rejected with the rule', async (flags, message) => {
    expect(await usageError(['run', '--demo', ...flags, 'hi'])).toContain(message);
  });

  it('"@agent" without a prompt asks for one', async () => {
    expect(await usageError(['run', '--demo', '@explore'])).toContain('"@agent" needs a prompt after it');
  });

  it('an unknown @agent lists the available agents', async () => {
    const message = await usageError(['run', '--demo', '@nope', 'hi']);
    expect(message).toContain('unknown agent "nope"; available agents: bash, explore, general, plan');
  });

  it('without --demo, a model is required', async () => {
    expect(await usageError(['run', 'hi'], { OPENAI_API_KEY: 'x' })).toContain('no model: pass --model M or set RXHARNESS_MODEL');
  });

  it('without --demo, an API key is required (the model may come from RXHARNESS_MODEL)', async () => {
    expect(await usageError(['run', 'hi'], { RXHARNESS_MODEL: 'm' })).toContain('no API key: pass --api-key K or set OPENAI_API_KEY');
    expect(await usageError(['run', '--model', 'm', 'hi'])).toContain('no API key');
  });

  it('a bad RXHARNESS_DEMO_DELAY_MS is named', async () => {
    const message = await usageError(['run', '--demo', 'hi'], { RXHARNESS_DEMO_DELAY_MS: 'fast' });
    expect(message).toContain('RXHARNESS_DEMO_DELAY_MS must be a whole number >= 0, got "fast"');
  });

  it('an RXHARNESS_DEMO_DELAY_MS longer than a timer holds is refused, not left to fire at once', async () => {
    const message = await usageError(['run', '--demo', 'hi'], { RXHARNESS_DEMO_DELAY_MS: '2147483648' });
    expect(message).toBe('rxharness: RXHARNESS_DEMO_DELAY_MS must be a whole number from 0 to 2147483647, got "2147483648"\n');
  });

  it('agents takes no positional arguments', async () => {
    expect(await usageError(['agents', 'extra'])).toContain("Unexpected argument 'extra'");
  });
});
