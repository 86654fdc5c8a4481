/**
 * `rxharness run` in-process against a fake model server, both fresh for each test (a CLI
 * sandbox, see `test/cli/cli-sandbox.ts`, and a {@link FakeOpenAIServer} answering with the
 * test file's handler) and closed after it: what the CLI's approval tests each wrote out.
 *
 * @module
 */
import { afterEach, beforeEach } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cliSandbox, type CliSandbox } from '../cli/cli-sandbox.js';
import type { TestCliIO } from '../cli/test-cli-io.js';
import { FakeOpenAIServer, type FakeReply, type RecordedRequest } from './fake-openai-server.js';

/** The current test's CLI and model server; see {@link cliModelPerTest}. */
export interface CliModelPerTest {
  /** The current test's fake model server: its `requests` are what the CLI sent. */
  readonly server: FakeOpenAIServer;
  /**
   * An IO for a run in the current test's sandbox, with an API key; its stdin a terminal when
   * `ttyStdin`. Change it (stdout a terminal, say) before {@link CliModelPerTest.run}.
   */
  io(ttyStdin: boolean): TestCliIO;
  /** Starts `rxharness run --model m --base-url <the server> ...flags prompt` on `io`; resolves to its exit code. */
  run(io: TestCliIO, prompt: string, ...flags: string[]): Promise<number>;
}

/**
 * Registers the `beforeEach` that makes the sandbox and starts the server, and the
 * `afterEach` that closes both. Call once at the top of a test file.
 *
 * @example
 * ```ts
 * const fake = cliModelPerTest(() => ({ text: 'done' }));
 * it('...', async () => {
 *   const io = fake.io(false);
 *   expect(await fake.run(io, 'hi', '--yes')).toBe(0);
 * });
 * ```
 */
export function cliModelPerTest(handler: (request: RecordedRequest) => FakeReply): CliModelPerTest {
  let now: { sandbox: CliSandbox; server: FakeOpenAIServer } | undefined;
  beforeEach(async () => {
    const sandbox = await cliSandbox();
    now = { sandbox, server: await FakeOpenAIServer.start({ handler }) };
  });
  afterEach(async () => {
    await now?.server.close();
    await now?.sandbox.cleanup();
    now = undefined;
  });
  const current = (): { sandbox: CliSandbox; server: FakeOpenAIServer } => {
    if (now === undefined) throw new Error('cliModelPerTest: use it inside a test');
    return now;
  };
  return {
    get server() {
      return current().server;
    },
    io: (ttyStdin) => current().sandbox.io({ OPENAI_API_KEY: 'test-key' }, { ttyStdin }),
    run: (io, prompt, ...flags) => main(['run', '--model', 'm', '--base-url', current().server.baseURL, ...flags, prompt], io),
  };
}
