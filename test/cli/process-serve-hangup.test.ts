import { describe, expect, it } from 'vitest';
import { startRun } from '../../src/client/index.js';
import { DEADLINE_MS, groupGone, groupRuns, runningCommands } from './running-command.js';
import { servedAddress } from './spawn-cli.js';

// `rxharness serve` left running in a terminal that is then closed gets SIGHUP. It stops as on
// Ctrl+C (the runs cancelled, their commands stopped: they run in sessions of their own and hear
// no hang-up), then ends by SIGHUP, as `run` does. From the sources, as a real process.

const runs = runningCommands();

describe('rxharness serve: the SIGHUP of a closed terminal', () => {
  it('cancels the runs, stops their commands and the server, then ends by SIGHUP (a shell reports 129)', async () => {
    const baseURL = await runs.model('sleep 300 & echo $$ > pid; sleep 300');
    const cli = runs.spawn(['serve', '--yes', '--model', 'm', '--base-url', baseURL, '--port', '0', '--workspace', runs.sandbox.workspace.dir]);
    const { url, token } = await servedAddress(cli);
    await startRun(new URL('api', url).href, { prompt: 'go' }, { token });
    const group = await runs.group(cli);
    expect(groupRuns(group)).toBe(true);

    cli.child.kill('SIGHUP');
    const result = await cli.exited;
    expect(result, result.stderr).toMatchObject({ code: null, signal: 'SIGHUP' });
    expect(result.stderr).toContain('Stopping: cancelling the runs and closing the server...');
    expect(await groupGone(group)).toBe(true);
    await expect(fetch(url)).rejects.toThrow();
  }, 3 * DEADLINE_MS);

  it('with no run going, stops at once and ends by SIGHUP', async () => {
    const cli = runs.spawn(['serve', '--demo', '--port', '0', '--workspace', runs.sandbox.workspace.dir]);
    const { url } = await servedAddress(cli);
    cli.child.kill('SIGHUP');
    const result = await cli.exited;
    expect(result, result.stderr).toMatchObject({ code: null, signal: 'SIGHUP', stderr: '\nStopping: cancelling the runs and closing the server...\n' });
    await expect(fetch(url)).rejects.toThrow();
  }, 3 * DEADLINE_MS);
});
