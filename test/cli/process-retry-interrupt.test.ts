import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { spawnCli, type CliProcess, type CliResult } from './spawn-cli.js';

// Ctrl+C while the model waits out a Retry-After: the wait is a timer that must die with the
// run, or the process says "Cancelled." and then stays alive until the timer fires.

let fixture: DelegationFixture;
let cli: CliProcess | undefined;
beforeEach(async () => {
  // A server still starting (503) is waited for, and the model says so just before the wait:
  // that line tells the test the timer is set.
  fixture = await startDelegationFixture({ main: () => ({ status: 503, headers: { 'retry-after': '3600' } }) });
});
afterEach(async () => {
  if (cli && cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
  cli = undefined;
  await fixture.close();
});

/** The process's end, or `'still running'` after `ms`. */
function endWithin(process: CliProcess, ms: number): Promise<CliResult | 'still running'> {
  return Promise.race([process.exited, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms))]);
}

describe('rxharness run: Ctrl+C during a Retry-After wait', () => {
  it('exits at once with 130, sending no retry', async () => {
    cli = spawnCli(['run', '--json', '--model', 'm', '--base-url', fixture.server.baseURL, 'hello'], {
      home: fixture.home,
      cwd: fixture.workspace.dir,
      env: { OPENAI_API_KEY: 'x' },
    });
    await cli.waitForStdout('"code":"model-server-starting"');
    expect(fixture.server.requests).toHaveLength(1);

    cli.child.kill('SIGINT');
    // A timer left behind would hold the process for the 30 s wait (the hour asked, capped): the
    // bound sits halfway to it, so a busy machine's slow exit is no failure.
    const result = await endWithin(cli, 15_000);
    expect(result).toMatchObject({ code: 130, signal: null, stderr: '\nCancelled.\n' });
    expect(fixture.server.requests).toHaveLength(1);
  }, 60_000);
});
