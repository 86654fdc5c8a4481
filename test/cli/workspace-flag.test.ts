import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// A --workspace that names no folder is bad usage (exit 2) for every command, said before
// anything starts: before an engine is built, and before `worker` or `serve --redis` reach
// Redis (nothing listens on port 1: reaching it would be a connection error, exit 1).

const sandbox = sandboxPerTest();
let file: string;
beforeEach(async () => {
  file = join(sandbox.home, 'afile');
  await writeFile(file, 'not a folder');
});

describe('--workspace naming a file', () => {
  it.each([
    ['agents', ['agents']],
    ['agents --json', ['agents', '--json']],
    ['run', ['run', '--demo', 'hi']],
    ['serve --redis', ['serve', '--demo', '--port', '0', '--redis', 'redis://127.0.0.1:1']],
    ['worker', ['worker', '--demo', '--redis', 'redis://127.0.0.1:1']],
  ])('%s: exit 2, saying so, before Redis', async (_, argv) => {
    const cli = sandbox.io();
    expect(await main([...argv, '--workspace', file], cli)).toBe(2);
    expect(cli.stderrText()).toBe(`rxharness: The workspace "${file}" is not a folder; pass a folder as \`workspace\`\n`);
    expect(cli.stdoutText()).toBe('');
  });
});

describe('--workspace that is a symlink loop', () => {
  it('is said to be one, not to be missing', async () => {
    const loop = join(sandbox.home, 'loop1');
    await symlink(join(sandbox.home, 'loop2'), loop);
    await symlink(loop, join(sandbox.home, 'loop2'));
    const cli = sandbox.io();
    expect(await main(['run', '--demo', '--workspace', loop, 'hi'], cli)).toBe(2);
    expect(cli.stderrText()).toBe(`rxharness: The workspace "${loop}" is a symlink loop; pass a folder (or a link that ends at one) as \`workspace\`\n`);
  });
});
