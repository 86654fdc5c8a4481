import { describe, expect, it } from 'vitest';
import { cliModelPerTest } from '../support/cli-model-per-test.js';

// The model runs `echo approved-run` with bash, then answers with what the tool returned.
const fake = cliModelPerTest((request) => {
  const last = request.body.messages!.at(-1)!;
  if (last.role === 'tool') return { text: `tool said: ${String(last.content)}` };
  return { toolCalls: [{ name: 'bash', arguments: { command: 'echo approved-run' } }] };
});

function run(ttyStdin: boolean, ...flags: string[]) {
  const cli = fake.io(ttyStdin);
  const exit = fake.run(cli, 'print something', ...flags);
  return { cli, exit };
}

/** What the bash tool returned to the model (its second request's last message). */
const toolResult = (): string => String(fake.server.requests[1]!.body.messages!.at(-1)!.content);

describe('rxharness run: approvals', () => {
  it('on a terminal it asks on stderr; "y" runs the call', async () => {
    const { cli, exit } = run(true);
    await cli.waitForStderr('[y]es / [a]lways / [n]o');
    expect(cli.stderrText()).toContain('? main wants to run bash\n  echo approved-run\n');
    cli.type('y');
    expect(await exit).toBe(0);
    expect(toolResult()).toContain('approved-run');
    expect(cli.stdoutText()).toContain('tool said:');
  });

  it('on a terminal, any other text rejects the call and reaches the model as the reason', async () => {
    const { cli, exit } = run(true);
    await cli.waitForStderr('[y]es');
    cli.type('print it with printf instead');
    expect(await exit).toBe(0);
    expect(toolResult()).toMatch(/^ERROR: The bash call was rejected: print it with printf instead\./);
  });

  it('without a terminal nothing is asked and the call is rejected; --yes approves without asking', async () => {
    const quiet = run(false);
    expect(await quiet.exit).toBe(0);
    // Nothing is asked; the user is told why the call was rejected and what lets it run.
    expect(quiet.cli.stderrText()).toMatch(/^rxharness: rejected bash \(.*\): there is no terminal to ask on\. Pass --yes to approve every call that asks/);
    expect(toolResult()).toMatch(/^ERROR: The bash call was rejected: nobody can approve it here \(no terminal; the user did not pass --yes\)\./);

    const yes = run(true, '--yes');
    expect(await yes.exit).toBe(0);
    expect(yes.cli.stderrText()).toBe('');
    expect(String(fake.server.requests[3]!.body.messages!.at(-1)!.content)).toContain('approved-run');
  });

  it('Ctrl+C while it asks cancels the run (130) and withdraws the question', async () => {
    const { cli, exit } = run(true);
    await cli.waitForStderr('[y]es');
    cli.interrupt();
    expect(await exit).toBe(130);
    expect(cli.stdin!.listenerCount('data')).toBe(0);
    expect(fake.server.requests).toHaveLength(1);
  });
});
