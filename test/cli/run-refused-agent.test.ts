import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cliSandbox, type CliSandbox } from './cli-sandbox.js';

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = await cliSandbox();
});
afterEach(() => sandbox.cleanup());

/** `rxharness run --demo "@<name> hi"`: its exit code, stdout and stderr. */
async function runAt(name: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const cli = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '0' });
  const code = await main(['run', '--demo', `@${name} hi`], cli);
  return { code, stdout: cli.stdoutText(), stderr: cli.stderrText() };
}

describe('rxharness run @name of a definition that was not loaded', () => {
  it('names the refused file and its reason, by the name in its front matter', async () => {
    // The file's name differs from the agent's: the refusal is found by the agent it defines.
    await sandbox.workspace.file('.rxharness/agents/code-review.md', '---\nname: reviewer\ndescription: Reviews.\ndisallowedTools: Bash\n---\nYou review.\n');
    const { code, stdout, stderr } = await runAt('reviewer');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^rxharness: agent "reviewer" was not loaded: \S*code-review\.md: disallowedTools names "Bash", which is no tool; did you mean "bash"\?/);
    expect(stderr).toMatch(/; see `rxharness agents`; available agents: bash, explore, general, plan\n$/);
  });

  it('names a file called <name>.md too broken to read a name from', async () => {
    await sandbox.workspace.file('.rxharness/agents/reviewer.md', '---\nname: reviewer\ndescription: [unclosed\n---\nYou review.\n');
    const { code, stderr } = await runAt('reviewer');
    expect(code).toBe(2);
    expect(stderr).toMatch(/^rxharness: agent "reviewer" was not loaded: \S*reviewer\.md: .+; see `rxharness agents`; available agents: /);
  });

  it('prints a long reason by its start, at most 600 characters once marked, and says where the rest is', async () => {
    // 200 names, each with no-break spaces: kept raw in the reason, each marked as 8 characters (<U+00A0>) when printed.
    const names = Array.from({ length: 200 }, (_, i) => `"Bad\u00a0\u00a0\u00a0${i}"`).join(', ');
    await sandbox.workspace.file('.rxharness/agents/reviewer.md', `---\nname: reviewer\ndescription: Reviews.\ndisallowedTools: [${names}]\n---\nYou review.\n`);
    const { code, stderr } = await runAt('reviewer');
    expect(code).toBe(2);
    const printed = /^rxharness: agent "reviewer" was not loaded: \S*reviewer\.md: (.*); `rxharness agents` shows the rest; available agents: bash, explore, general, plan\n$/.exec(stderr);
    expect(printed).not.toBeNull();
    const reason = printed![1]!;
    expect(reason).toMatch(/^disallowedTools names "Bad<U\+00A0><U\+00A0><U\+00A0>0", /);
    expect(reason.length).toBeLessThanOrEqual(600);
    expect(reason.length).toBeGreaterThan(550); // what fits is kept, not a handful
    expect(reason).toMatch(/(<U\+00A0>|[^<]*[^>])…$/); // never half a mark
  });

  it('a name no file defines is still unknown', async () => {
    await sandbox.workspace.file('.rxharness/agents/code-review.md', '---\nname: reviewer\ndescription: Reviews.\ndisallowedTools: Bash\n---\nYou review.\n');
    const { code, stderr } = await runAt('other');
    expect(code).toBe(2);
    expect(stderr).toBe('rxharness: unknown agent "other"; available agents: bash, explore, general, plan\n');
  });
});
