import { mkdir, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

const sandbox = sandboxPerTest();

describe('rxharness run in-process', () => {
  it('runs the demo to exit 0 and releases its Ctrl+C listener', async () => {
    const cli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '0' });
    expect(await main(['run', '--demo', 'Survey this project'], cli)).toBe(0);
    expect(cli.stdoutText()).toContain('[main] run done');
    expect(cli.stdoutText()).toContain('Survey complete.');
    expect(cli.stderrText()).toBe('');
    expect(cli.interruptListeners()).toBe(0);
  });

  it('reads agent definitions from the HOME of its environment', async () => {
    const home = sandbox.io();
    await mkdir(`${sandbox.home}/.rxharness/agents`, { recursive: true });
    await writeFile(
      `${sandbox.home}/.rxharness/agents/homebody.md`,
      '---\nname: homebody\ndescription: Lists folders.\ntools: [list]\n---\nYou list folders.\n',
    );
    const cli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '0' });
    expect(await main(['run', '--demo', '@homebody', 'look at the top-level'], cli)).toBe(0);
    expect(cli.stdoutText()).toContain('[homebody] tool list . started');
    expect(await main(['agents'], home)).toBe(0);
    expect(home.stdoutText()).toMatch(/^homebody +\[user\] +Lists folders\.$/m);
  });

  it('Ctrl+C cancels the run, says so and resolves 130', async () => {
    // slow enough that the run is still going when the first task has started
    const cli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '20' });
    const exit = main(['run', '--demo', 'Survey this project'], cli);
    await cli.waitForStdout('task started');
    cli.interrupt();
    expect(await exit).toBe(130);
    expect(cli.stderrText()).toBe('\nCancelled.\n');
    expect(cli.stdoutText()).not.toContain('final answer');
    expect(cli.interruptListeners()).toBe(0);
  });
});
