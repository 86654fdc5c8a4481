/**
 * The setup most CLI tests share: a fresh {@link cliSandbox} for each test and, when the test
 * talks to a model, a {@link FakeOpenAIServer} for it, both gone after the test.
 *
 * @module
 */
import { afterEach, beforeEach } from 'vitest';
import { main } from '../../src/cli/main.js';
import { FakeOpenAIServer, type FakeServerOptions } from '../support/fake-openai-server.js';
import { cliSandbox, type CliSandbox } from './cli-sandbox.js';
import type { TestCliIO } from './test-cli-io.js';

/** What {@link sandboxPerTest} gives: the current test's sandbox (read it inside a test or hook only) and model server. */
export interface SandboxPerTest extends Omit<CliSandbox, 'cleanup'> {
  /** The model server of the current test: the one {@link sandboxPerTest} or {@link SandboxPerTest.serve} started. */
  readonly server: FakeOpenAIServer;
  /** Starts the current test's model server, closed after the test (for a test that needs its own replies). */
  serve(options?: FakeServerOptions): Promise<FakeOpenAIServer>;
  /** `rxharness run --json --model m --base-url <server> ...args` in process, with an API key set; its exit code and IO. */
  runJson(...args: string[]): Promise<{ code: number; cli: TestCliIO }>;
  /**
   * `rxharness ...argv` in process with {@link USAGE_ENV} (or `env`, besides the sandbox's
   * `HOME`): how it ended. For the tests of usage errors, which need no model server.
   */
  cli(argv: readonly string[], env?: Readonly<Record<string, string>>): Promise<CliOutcome>;
}

/** How one in-process `main()` ended. */
export interface CliOutcome {
  readonly code: number;
  readonly stderr: string;
  readonly stdout: string;
}

/** The variables of {@link SandboxPerTest.cli} by default: no API key (nothing may reach a model), the demo at full speed. */
export const USAGE_ENV: Readonly<Record<string, string>> = { OPENAI_API_KEY: '', RXHARNESS_DEMO_DELAY_MS: '0' };

/**
 * Registers the `beforeEach` that makes a sandbox (and, given `server`, starts a model server
 * with those options) and the `afterEach` that closes the server and removes the sandbox. Hooks
 * a file registers after this call run after its `beforeEach` and, vitest running `afterEach`
 * hooks last-registered first, before its `afterEach`: a process a test started can be killed
 * there while its workspace and model server still exist.
 *
 * @param server - the options of a model server to start for each test; none without them
 *   (a test may then start its own with `serve`).
 * @example
 * ```ts
 * const sandbox = sandboxPerTest({ handler: () => ({ text: 'ok' }) });
 * it('...', async () => {
 *   expect((await sandbox.runJson('hi')).code).toBe(0);
 *   expect(sandbox.server.requests).toHaveLength(1);
 * });
 * ```
 */
export function sandboxPerTest(server?: FakeServerOptions): SandboxPerTest {
  let sandbox: CliSandbox | undefined;
  let model: FakeOpenAIServer | undefined;
  // A name read outside a test would be undefined and fail far away: say where it went wrong.
  const current = (): CliSandbox => {
    if (!sandbox) throw new Error('sandboxPerTest: the sandbox exists only while a test runs (read it in a test or hook)');
    return sandbox;
  };
  beforeEach(async () => {
    sandbox = await cliSandbox();
    if (server) model = await FakeOpenAIServer.start(server);
  });
  afterEach(async () => {
    await model?.close();
    await sandbox?.cleanup();
    model = sandbox = undefined;
  });
  const test: SandboxPerTest = {
    get workspace() {
      return current().workspace;
    },
    get home() {
      return current().home;
    },
    io: (env, options) => current().io(env, options),
    get server() {
      if (!model) throw new Error('sandboxPerTest: this test has no model server (pass its options to sandboxPerTest, or call serve)');
      return model;
    },
    async serve(options) {
      if (model) throw new Error('sandboxPerTest: this test has a model server already');
      model = await FakeOpenAIServer.start(options);
      return model;
    },
    async runJson(...args) {
      const cli = test.io({ OPENAI_API_KEY: 'test-key' });
      const code = await main(['run', '--json', '--model', 'm', '--base-url', test.server.baseURL, ...args], cli);
      return { code, cli };
    },
    async cli(argv, env = USAGE_ENV) {
      const io = test.io({ ...env });
      const code = await main([...argv], io);
      return { code, stderr: io.stderrText(), stdout: io.stdoutText() };
    },
  };
  return test;
}
