/**
 * `rxharness run` on a terminal: the tree stops below its frame only for an approval that
 * writes there. With `--yes` (nobody asked) each call that asked left a frozen copy of the
 * tree; without a terminal to ask on, only the first (whose note is written) does.
 */
import { describe, expect, it } from 'vitest';
import { cliModelPerTest } from '../support/cli-model-per-test.js';
import { screenLines } from './support/screen-lines.js';

// The model runs bash three times, one call a step, each asking for approval, then answers.
const fake = cliModelPerTest((request) => {
  const done = request.body.messages!.filter((m) => m.role === 'tool').length;
  if (done >= 3) return { text: 'all three ran' };
  return { toolCalls: [{ name: 'bash', arguments: { command: `echo step-${done + 1}` } }] };
});

/** The lines of the screen showing the run's prompt: one per copy of the tree left on it. */
async function treeCopies(ttyStdin: boolean, ...flags: string[]): Promise<number> {
  const cli = fake.io(ttyStdin);
  Object.assign(cli.stdout, { isTTY: true, columns: 100, rows: 40 }); // stdout a terminal: the tree is redrawn in place
  expect(await fake.run(cli, 'check the build', ...flags)).toBe(0);
  expect(fake.server.requests).toHaveLength(4);
  return screenLines(cli.stdoutText()).filter((line) => line.includes('check the build')).length;
}

describe('rxharness run: the tree and approvals nobody is asked', () => {
  it('--yes: the tree is on screen once', async () => {
    expect(await treeCopies(true, '--yes')).toBe(1);
  });

  it('no terminal to ask on: the tree stops once, for the note, not per rejected call', async () => {
    expect(await treeCopies(false)).toBe(2);
  });
});
