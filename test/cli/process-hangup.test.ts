import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEADLINE_MS, groupGone, groupRuns, runningCommands, waitUntil } from './running-command.js';

// A closed terminal sends the CLI SIGHUP. The model's commands run in sessions of their own
// (the bash tool), so they hear no hang-up: only the CLI can stop them. Run from the sources,
// as a real process, so the process's own signal handling is what is tested.

const runs = runningCommands();

describe('rxharness run: the SIGHUP of a closed terminal', () => {
  it('cancels the run and stops its commands, then ends by SIGHUP (a shell reports 129)', async () => {
    // Two processes in the command's group: one in the background, one in the foreground.
    const { cli, group } = await runs.start('sleep 300 & echo $$ > pid; sleep 300');
    expect(groupRuns(group)).toBe(true);
    cli.child.kill('SIGHUP');
    const result = await cli.exited;
    expect(result, result.stderr).toMatchObject({ code: null, signal: 'SIGHUP' });
    expect(result.stderr).toContain('Cancelled (SIGHUP).');
    expect(await groupGone(group)).toBe(true);
  }, 3 * DEADLINE_MS);

  it('more SIGHUPs while a command that ignores SIGTERM is being stopped leave it killed, quietly', async () => {
    // The trap notes the SIGTERM the stop sends, and ignores it.
    const { cli, group } = await runs.start("trap 'echo > stopping' TERM; trap '' INT HUP; echo $$ > pid; while :; do sleep 0.2; done");
    cli.child.kill('SIGHUP');
    const stopping = join(runs.sandbox.workspace.dir, 'stopping');
    // Once the command got its SIGTERM it is in its 2 s grace before the SIGKILL: hang up again
    // and again until the CLI ends, as a shell passing on the hang-up to its jobs may, so some
    // land while the run is stopping and some after it returned. None may end the process
    // before it sent the SIGKILL (that, too, would end it by SIGHUP, but leave the command).
    expect(await waitUntil(() => existsSync(stopping), DEADLINE_MS)).toBe(true);
    expect(await waitUntil(() => !cli.child.kill('SIGHUP'), DEADLINE_MS)).toBe(true);
    const result = await cli.exited;
    expect(result, result.stderr).toMatchObject({ code: null, signal: 'SIGHUP' });
    // Nothing written to a terminal that is gone, but the one line of the first hang-up.
    expect(result.stderr).not.toContain('still stopping');
    expect(await groupGone(group)).toBe(true);
  }, 3 * DEADLINE_MS);
});
