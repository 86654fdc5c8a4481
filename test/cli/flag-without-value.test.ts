/**
 * A flag that takes a value, followed by nothing or by a word that starts with "-" (which
 * Node reads as another flag, and refuses in three lines of its own): one line of ours, for
 * every command and flag, saying how to give a value that starts with "-". The word is
 * quoted, except after a flag whose value may be a secret, and but for a flag carrying its own
 * value (`--model --api-key=sk-...`): the value may be a secret.
 */
import { describe, expect, it } from 'vitest';
import { sandboxPerTest } from './sandbox-per-test.js';

const sandbox = sandboxPerTest();

const AFTER = 'starts with "-", so it reads as another flag';

describe('a flag without its value', () => {
  it.each([
    [['worker', '--redis', 'redis://127.0.0.1:1', '--demo', '--concurrency', '-1'], `--concurrency needs a value, but the word after it, "-1", ${AFTER}: give it as --concurrency V, one that starts with "-" as --concurrency=-1`],
    [['serve', '--demo', '--max-control-requests', '-1'], `--max-control-requests needs a value, but the word after it, "-1", ${AFTER}: give it as --max-control-requests V, one that starts with "-" as --max-control-requests=-1`],
    [['run', '--model', '--demo', 'hi'], `--model needs a value, but the word after it, "--demo", ${AFTER}: give it as --model V, one that starts with "-" as --model=--demo`],
    [['agents', '--workspace'], '--workspace needs a value, but nothing follows it: give it as --workspace V, one that starts with "-" as --workspace=-V'],
  ])('%j: exit 2, one line of ours, nothing runs', async (argv, message) => {
    const { code, stderr, stdout } = await sandbox.cli(argv);
    expect(code).toBe(2);
    expect(stderr).toBe(`rxharness: ${message}\n`);
    expect(stdout).toBe('');
  });

  it.each([
    [['run', '--model', 'm', '--api-key', '-sk-from-a-vault', 'hi'], '--api-key', ', or set OPENAI_API_KEY instead'],
    [['worker', '--demo', '--redis', '-redis://:from-a-vault@host:6379'], '--redis', ', or set RXHARNESS_REDIS_URL instead'],
    [['serve', '--demo', '--redis', '-redis://:from-a-vault@host:6379'], '--redis', ''],
  ])('%j: a secret flag\'s word is not repeated', async (argv, flag, instead) => {
    const { code, stderr } = await sandbox.cli(argv);
    expect(code).toBe(2);
    expect(stderr).toBe(`rxharness: ${flag} needs a value, but the word after it ${AFTER}: give it as ${flag} V, one that starts with "-" as ${flag}=-V${instead}\n`);
    expect(stderr).not.toContain('from-a-vault');
  });

  it.each([
    [['run', '--model', '--api-key=sk-from-a-vault', 'hi'], '--model', ''],
    [['worker', '--prefix', '--redis=redis://user:from-a-vault@127.0.0.1:1', '--demo'], '--prefix', ''],
    [['serve', '--demo', '--host', '--token=from-a-vault-abcdefghijkl'], '--host', ''],
  ])('%j: the next flag carrying its own value (an empty variable before it) is not repeated, whatever the flag before it', async (argv, flag, instead) => {
    const { code, stderr } = await sandbox.cli(argv);
    expect(code).toBe(2);
    expect(stderr).toBe(`rxharness: ${flag} needs a value, but the word after it ${AFTER}: give it as ${flag} V, one that starts with "-" as ${flag}=-V${instead}\n`);
    expect(stderr).not.toContain('from-a-vault');
  });

  it.each([
    [['run', '--max-steps', '--', 'hi'], '--max-steps', ''],
    [['run', '--demo', '--agent-dir', '--', 'hi'], '--agent-dir', ''],
    [['worker', '--demo', '--redis', '--'], '--redis', ', or set RXHARNESS_REDIS_URL instead'],
  ])('%j: "--" ends the flags, so the value goes before it (never "=--", which is no value either)', async (argv, flag, instead) => {
    const { code, stderr, stdout } = await sandbox.cli(argv);
    expect(code).toBe(2);
    expect(stderr).toBe(`rxharness: ${flag} needs a value, but "--" follows it, which ends the flags: give it as ${flag} V before "--", one that starts with "-" as ${flag}=-V${instead}\n`);
    expect(stderr).not.toContain('=--');
    expect(stdout).toBe('');
  });

  it('--port=-1 is a value, refused by the port check itself', async () => {
    const { code, stderr } = await sandbox.cli(['serve', '--demo', '--port=-1']);
    expect(code).toBe(2);
    expect(stderr).toBe('rxharness: --port must be a whole number >= 0, got "-1"\n');
  });

  it('"-" alone is a value, and after "--" a word that looks like a flag is the prompt', async () => {
    const { code, stdout } = await sandbox.cli(['run', '--demo', '--session', '-', '--', '--max-steps']);
    expect(code).toBe(0);
    expect(stdout).toContain('Survey complete');
  });
});
