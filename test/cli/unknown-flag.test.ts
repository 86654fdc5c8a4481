import { describe, expect, it } from 'vitest';
import { sandboxPerTest } from './sandbox-per-test.js';

// A mistyped flag is bad usage (exit 2) that names the flag meant, by the same rule as a
// definition's misspelt keys (src/errors/did-you-mean.ts), before anything starts.

const sandbox = sandboxPerTest();

describe('unknown flags: did you mean', () => {
  it.each([
    [['run', '--demo', '--max-step', '3', 'hi'], 'run', '--max-step', '--max-steps'],
    [['run', '--demo', '--max-step=3', 'hi'], 'run', '--max-step', '--max-steps'],
    [['run', '--demo', '--maxSteps', '3', 'hi'], 'run', '--maxSteps', '--max-steps'],
    [['run', '--demo', '--mcp_config', 'x.json', 'hi'], 'run', '--mcp_config', '--mcp-config'],
    [['run', '--demo', '--sesion', 'notes', 'hi'], 'run', '--sesion', '--session'],
    [['agents', '--jsn'], 'agents', '--jsn', '--json'],
    [['serve', '--demo', '--max-run', '3'], 'serve', '--max-run', '--max-runs'],
    [['worker', '--demo', '--concurency', '2'], 'worker', '--concurency', '--concurrency'],
  ])('%j: exit 2, naming the flag meant', async (argv, command, typed, meant) => {
    const { code, stderr, stdout } = await sandbox.cli(argv);
    expect(code).toBe(2);
    expect(stderr).toBe(`rxharness: unknown option ${typed}; did you mean ${meant}? (rxharness ${command} --help lists them)\n`);
    // Nothing ran: no tree, no answer.
    expect(stdout).toBe('');
  });

  it('a flag like no other: exit 2, where the flags are listed, and how to pass a prompt that starts with "-"', async () => {
    const { code, stderr } = await sandbox.cli(['run', '--demo', '--frobnicate', 'hi']);
    expect(code).toBe(2);
    expect(stderr).toBe('rxharness: unknown option --frobnicate (rxharness run --help lists them); an argument that starts with "-" goes after "--", as in -- "--frobnicate"\n');
  });

  it.each([
    ['agent', 'agents'],
    ['rn', 'run'],
    ['--verison', '--version'],
  ])('an unknown command %s names %s', async (typed, meant) => {
    const { code, stderr } = await sandbox.cli([typed]);
    expect(code).toBe(2);
    expect(stderr).toBe(`rxharness: unknown command "${typed}"; did you mean "${meant}"? (see rxharness --help)\n`);
  });

  it('an unknown short flag gets no guess', async () => {
    const { code, stderr } = await sandbox.cli(['agents', '-x']);
    expect(code).toBe(2);
    expect(stderr).toBe('rxharness: unknown option -x (rxharness agents --help lists them)\n');
  });

  it('a known flag without its value says so in one line of ours', async () => {
    const { code, stderr } = await sandbox.cli(['run', '--demo', 'hi', '--max-steps']);
    expect(code).toBe(2);
    expect(stderr).toBe('rxharness: --max-steps needs a value, but nothing follows it: give it as --max-steps V, one that starts with "-" as --max-steps=-V\n');
  });

  it('a flag name of 10,000 characters is shown by its start and length, and the line still says where the flags are listed', async () => {
    const flag = `--${'a'.repeat(10_000)}`;
    const { code, stderr } = await sandbox.cli(['run', '--demo', flag, 'hi']);
    expect(code).toBe(2);
    expect(stderr).toBe(`rxharness: unknown option ${flag.slice(0, 120)}… (10002 characters) (rxharness run --help lists them); an argument that starts with "-" goes after "--"\n`);
  });
});
