import { Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { presentRun } from '../../src/cli/present-run.js';
import type { AgentEvent } from '../../src/events/index.js';
import { testCliIO } from './test-cli-io.js';

/** A run that never ends and whose teardown throws, on two lines. */
function failingTeardown(): Observable<AgentEvent> {
  return new Observable<AgentEvent>(() => () => {
    throw new Error('teardown\nfailed');
  });
}

describe('presentRun when stopping the run throws', () => {
  it('Ctrl+C still settles with 130 and says so on one stderr line, throwing nothing out of the listener', async () => {
    const cli = testCliIO();
    const run = presentRun(failingTeardown(), false, cli);
    expect(() => cli.interrupt()).not.toThrow();
    expect(await run.code).toBe(130);
    const lines = cli.stderrText().split('\n');
    expect(lines.slice(0, 2)).toEqual(['', 'Cancelled.']);
    expect(lines[2]).toMatch(/^rxharness: stopping the run failed: .*teardown failed$/);
    expect(lines.slice(3)).toEqual(['']);
    run.stop();
    expect(cli.interruptListeners()).toBe(0);
  });

  it('a failed stdout still settles with its code, the stop failure told on one line', async () => {
    const cli = testCliIO();
    const run = presentRun(failingTeardown(), false, cli);
    expect(() => cli.stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).not.toThrow();
    expect(await run.code).toBe(141);
    expect(cli.stderrText()).toMatch(/^rxharness: stopping the run failed: .*teardown failed\n$/);
    run.stop();
  });
});
