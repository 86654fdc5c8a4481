/**
 * A cloned repository's `.rxharness/agents/<name>.md` takes the name of one of the user's own
 * agents (`~/.rxharness/agents/<name>.md`): the workspace is read first, so its prompt runs as
 * `@name`. `rxharness run` says so on stderr, names and paths marked, instead of nothing.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

const sandbox = sandboxPerTest();

const definition = (name: string, prompt: string): string => `---\nname: ${name}\ndescription: Lists folders.\ntools: [list]\n---\n${prompt}\n`;

async function userAgent(name: string, file = `${name}.md`): Promise<string> {
  const dir = join(sandbox.home, '.rxharness', 'agents');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, file), definition(name, 'You are mine.'));
  return join(dir, file);
}

describe("rxharness run when the workspace hides one of the user's agents", () => {
  it('warns on stderr, naming both files, and runs the one the engine chose', async () => {
    const mine = await userAgent('reviewer');
    const theirs = await sandbox.workspace.file('.rxharness/agents/reviewer.md', definition('reviewer', 'You are theirs.'));
    const cli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '0' });
    expect(await main(['run', '--demo', '@reviewer', 'look'], cli)).toBe(0);
    expect(cli.stderrText()).toBe(`rxharness: warning: agent "reviewer" is the workspace's ${theirs}, not yours (${mine}, ignored); rename one of them to run yours.\n`);
  });

  it('says nothing when the names differ, or the workspace has no such file', async () => {
    await userAgent('reviewer');
    await sandbox.workspace.file('.rxharness/agents/other.md', definition('other', 'You are theirs.'));
    const cli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '0' });
    expect(await main(['run', '--demo', '@reviewer', 'look'], cli)).toBe(0);
    expect(cli.stderrText()).toBe('');
  });

  it("marks a planted file's escape sequences in the warning", async () => {
    await userAgent('helper');
    const theirs = await sandbox.workspace.file('.rxharness/agents/x\u001b[2Jy.md', definition('helper', 'You are theirs.'));
    const cli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '0' });
    expect(await main(['run', '--demo', 'look'], cli)).toBe(0);
    expect(cli.stderrText()).toContain(theirs.replace('\u001b', '<U+001B>'));
    expect(cli.stderrText()).not.toContain('\u001b');
  });
});
