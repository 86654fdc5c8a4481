/**
 * A run's failure is told once. A refused run (here: its session is held by another run)
 * printed it twice, the tree's `error:` line on stdout and `rxharness: ...` on stderr; it now
 * goes to stderr only, as any error of a command that ran nothing. A failure after the tree
 * has begun is drawn in it and said whole on stderr (a terminal's tree line is cut).
 */
import { concat, from, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { presentRun } from '../../src/cli/present-run.js';
import { runTree } from '../../src/cli/run-tree.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { FixtureRun } from '../adapters/fixtures.js';
import { sandboxPerTest } from './sandbox-per-test.js';
import type { TestCliIO } from './test-cli-io.js';

const sandbox = sandboxPerTest();

/** Makes the captured stdout say it is a terminal, as `process.stdout` does in one. */
function asTerminal(cli: TestCliIO): TestCliIO {
  Object.assign(cli.stdout, { isTTY: true, columns: 80, rows: 24, hasColors: () => false });
  return cli;
}

const BUSY = 'rxharness: session "notes" is busy: run run_elsewhere has not ended yet. Runs of one session go one at a time; wait for its RunEnd (or cancel it), or use another sessionId.\n';

describe('rxharness run: a refused run says why once', () => {
  it.each([
    ['stdout is a pipe', [], false],
    ['stdout is a terminal', [], true],
    ['--json', ['--json'], false],
  ] as const)('%s: on stderr only, exit 1', async (_name, flags, terminal) => {
    const held = await new FileSessionStore(sandbox.workspace.dir, { home: sandbox.home }).claim('notes', 'run_elsewhere');
    expect(held.granted).toBe(true);
    const plain = sandbox.io({ RXHARNESS_DEMO_DELAY_MS: '0' });
    const cli = terminal ? asTerminal(plain) : plain;
    expect(await main(['run', '--demo', '--session', 'notes', ...flags, 'hi'], cli)).toBe(1);
    expect(cli.stderrText()).toBe(BUSY);
    expect(cli.stdoutText()).not.toContain('busy');
    expect(cli.interruptListeners()).toBe(0);
  });
});

describe('runTree: a run that fails after its tree began', () => {
  const failing = () => {
    const run = new FixtureRun('m', 'main');
    const child = run.task({ taskId: 'a', agentName: 'general', description: 'Look around' });
    return concat(from([run.start('go'), child.start('look')]), throwError(() => new Error('socket hang up')));
  };

  it('on a terminal: the tree shows the error, stderr says it whole', async () => {
    const cli = asTerminal(sandbox.io());
    const shown = presentRun(runTree(failing(), cli), false, cli);
    expect(await shown.code).toBe(1);
    shown.stop();
    expect(cli.stdoutText()).toContain('error: Error: socket hang up\n');
    expect(cli.stderrText()).toBe('rxharness: socket hang up\n');
  });

  it('to a pipe: the plain lines show it, and stderr still carries it for the terminal', async () => {
    const cli = sandbox.io();
    const shown = presentRun(runTree(failing(), cli), false, cli);
    expect(await shown.code).toBe(1);
    shown.stop();
    expect(cli.stdoutText()).toBe('[general#1] task started: Look around\nerror: Error: socket hang up\n');
    expect(cli.stderrText()).toBe('rxharness: socket hang up\n');
  });
});
