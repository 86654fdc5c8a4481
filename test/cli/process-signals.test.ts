import { describe, expect, it } from 'vitest';
import { DEADLINE_MS, groupGone, runningCommands, waitUntil } from './running-command.js';

// The model's commands run each in its own process group and session (the bash tool), so no
// signal sent to the CLI reaches them: only the CLI can stop them. Run from the sources, as
// a real process, so the process's own signal handling is what is tested.

const runs = runningCommands();

describe('rxharness run: signals stop the commands the run started', () => {
  it('SIGTERM cancels the run as Ctrl+C does: the command is stopped and the exit code is 143', async () => {
    const { cli, group } = await runs.start('echo $$ > pid; exec sleep 300');
    cli.child.kill('SIGTERM');
    const result = await cli.exited;
    expect(result, result.stderr).toMatchObject({ code: 143, signal: null });
    expect(result.stderr).toContain('Cancelled (SIGTERM).');
    expect(await groupGone(group)).toBe(true);
  }, 3 * DEADLINE_MS);

  it('a second Ctrl+C while a command that ignores SIGTERM is being stopped does not leave it running', async () => {
    const { cli, group } = await runs.start("trap '' TERM INT; echo $$ > pid; while :; do sleep 0.2; done");
    cli.child.kill('SIGINT');
    expect(await waitUntil(() => cli.stderr().includes('Cancelled.'), DEADLINE_MS)).toBe(true);
    // The command is in its 2 s SIGTERM grace. Press Ctrl+C again, as often as it takes for the
    // hold that follows the command's return to answer: every press must be held, none may end
    // the process before it sent the SIGKILL.
    const held = () => cli.stderr().includes('still stopping the commands its runs started');
    expect(await waitUntil(() => held() || !cli.child.kill('SIGINT'), DEADLINE_MS)).toBe(true);
    const result = await cli.exited;
    expect(result, result.stderr).toMatchObject({ code: 130, signal: null });
    expect(held()).toBe(true);
    expect(await groupGone(group)).toBe(true);
  }, 3 * DEADLINE_MS);
});
