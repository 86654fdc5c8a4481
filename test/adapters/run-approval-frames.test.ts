/**
 * `rxharness run` on a terminal: the tree stops below its frame only for an approval that
 * writes there. With `--yes` (nobody asked) each call that asked left a frozen copy of the
 * tree; without a terminal to ask on, only the first (whose note is written) does.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cliSandbox, type CliSandbox } from '../cli/cli-sandbox.js';
import { FakeOpenAIServer, type FakeReply, type RecordedRequest } from '../support/fake-openai-server.js';
import { screenLines } from './support/screen-lines.js';

let sandbox: CliSandbox;
let server: FakeOpenAIServer;
beforeEach(async () => {
  sandbox = await cliSandbox();
  // The model runs bash three times, one call a step, each asking for approval, then answers.
  server = await FakeOpenAIServer.start({
    handler: (request: RecordedRequest): FakeReply => {
      const done = request.body.messages!.filter((m) => m.role === 'tool').length;
      if (done >= 3) return { text: 'all three ran' };
      return { toolCalls: [{ name: 'bash', arguments: { command: `echo step-${done + 1}` } }] };
    },
  });
});
afterEach(async () => {
  await server.close();
  await sandbox.cleanup();
});

/** The lines of the screen showing the run's prompt: one per copy of the tree left on it. */
async function treeCopies(ttyStdin: boolean, ...flags: string[]): Promise<number> {
  const cli = sandbox.io({ OPENAI_API_KEY: 'test-key' }, { ttyStdin });
  Object.assign(cli.stdout, { isTTY: true, columns: 100, rows: 40 }); // stdout a terminal: the tree is redrawn in place
  expect(await main(['run', '--model', 'm', '--base-url', server.baseURL, ...flags, 'check the build'], cli)).toBe(0);
  expect(server.requests).toHaveLength(4);
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
