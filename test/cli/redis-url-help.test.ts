/**
 * The `--redis` entry of `serve --help` and `worker --help` names every form the CLI takes
 * (`checkRedisUrl`): it used to show only `redis://HOST:PORT`, though `rediss://`, `HOST:PORT`,
 * a port and a Unix socket's path are taken too (a socket has no `redis://` form at all).
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { checkRedisUrl } from '../../src/cli/redis-url-usage.js';
import { sandboxPerTest } from './sandbox-per-test.js';

const sandbox = sandboxPerTest();

/** The `--redis` entry of a help: its first line and those indented under it, as one line. */
function redisEntry(help: string): string {
  const lines = help.split('\n');
  const first = lines.findIndex((line) => line.startsWith('  --redis URL'));
  expect(first).toBeGreaterThanOrEqual(0);
  let end = first + 1;
  while (lines[end]?.startsWith(' '.repeat(22))) end++;
  return lines.slice(first, end).map((line) => line.trim()).join(' ');
}

describe('the --redis entry of a help', () => {
  it.each(['serve', 'worker'])('of %s names every form the CLI takes, and its examples are taken', async (command) => {
    const cli = sandbox.io();
    expect(await main([command, '--help'], cli)).toBe(0);
    const entry = redisEntry(cli.stdoutText());
    for (const form of ['redis://[USER:PASSWORD@]HOST:PORT', 'rediss://', 'HOST:PORT,', 'a port', 'Unix socket']) expect(entry).toContain(form);
    const examples = entry.match(/(?:rediss?:\/\/[\w.:]+\d|\/[\w/.-]+\.sock)/g) ?? [];
    expect(examples.some((example) => example.startsWith('/'))).toBe(true);
    for (const example of examples) expect(() => checkRedisUrl(example, '--redis')).not.toThrow();
  });
});
