import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

const sandbox = sandboxPerTest();
beforeEach(() => {
  const dir = join(sandbox.workspace.dir, '.rxharness', 'agents');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'off.md'), '---\nname: off\ndescription: A long description that must not be listed\nenabled: false\n---\nbody\n');
});

/** `rxharness run --demo "@<name> hi"`: its exit code, stdout and stderr. */
async function runAt(name: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const cli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '0' });
  const code = await main(['run', '--demo', `@${name} hi`], cli);
  return { code, stdout: cli.stdoutText(), stderr: cli.stderrText() };
}

describe('rxharness run @name of a disabled agent', () => {
  it.each([['off'], ['compaction']])('@%s is bad usage (2), listing the agents by name only, as an unknown name is', async (name) => {
    const { code, stdout, stderr } = await runAt(name);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`rxharness: agent "${name}" is disabled (enabled: false); available agents: bash, explore, general, plan\n`);
  });

  it('an unknown name still says it is unknown', async () => {
    const { code, stderr } = await runAt('nosuch');
    expect(code).toBe(2);
    expect(stderr).toBe('rxharness: unknown agent "nosuch"; available agents: bash, explore, general, plan\n');
  });
});
