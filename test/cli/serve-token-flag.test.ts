/**
 * `rxharness serve --token` without its value: followed by nothing, or by a word that
 * starts with "-" (Node reads it as a flag and refuses in its own words, three lines of them).
 * Ours says how to give it, and never repeats the word, which may be the secret.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

const sandbox = sandboxPerTest();

const HOW = 'give it as --token V, one that starts with "-" as --token=-V, or set RXHARNESS_TOKEN instead';

describe('rxharness serve --token without its value', () => {
  it.each([
    [['serve', '--demo', '--token', '-secret-from-a-vault'], 'the word after it starts with "-", so it reads as another flag'],
    [['serve', '--demo', '--token', '--port', '0'], 'the word after it starts with "-", so it reads as another flag'],
    [['serve', '--demo', '--token'], 'nothing follows it'],
  ])('%j is bad usage: exit 2, one line saying how to give it', async (argv, why) => {
    const cli = sandbox.io();
    expect(await main(argv, cli)).toBe(2);
    expect(cli.stderrText()).toBe(`rxharness: --token needs a value, but ${why}: ${HOW}\n`);
    expect(cli.stderrText()).not.toContain('secret-from-a-vault');
  });

  it('a token that starts with "-", given as --token=-T, is taken (checked as any token)', async () => {
    const cli = sandbox.io();
    expect(await main(['serve', '--demo', '--token=-short'], cli)).toBe(2);
    expect(cli.stderrText()).toContain('--token must be a secret of 16 to 512 characters');
  });
});

describe('rxharness serve --help', () => {
  it('says how to give a token that starts with "-"', async () => {
    const cli = sandbox.io();
    expect(await main(['serve', '--help'], cli)).toBe(0);
    expect(cli.stdoutText()).toContain('A token that starts with "-" goes as --token=-T');
  });
});
