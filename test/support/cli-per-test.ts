/**
 * `main()` in-process, in a fresh CLI sandbox per test (a temporary workspace and home, see
 * `test/cli/cli-sandbox.ts`), with no API key and the demo at full speed: what the tests of
 * the CLI's usage errors each wrote out.
 *
 * @module
 */
import { afterEach, beforeEach } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cliSandbox, type CliSandbox } from '../cli/cli-sandbox.js';

/** How one `main()` ended. */
export interface CliOutcome {
  readonly code: number;
  readonly stderr: string;
  readonly stdout: string;
}

/** Runs `rxharness ...argv` in the current test's sandbox. */
export type RunCli = (...argv: string[]) => Promise<CliOutcome>;

/**
 * Registers the `beforeEach` that makes a sandbox and the `afterEach` that removes it, and
 * returns the run.
 *
 * @param env - variables besides the sandbox's `HOME`; by default none set `OPENAI_API_KEY`
 *   and the demo streams without delay.
 * @example
 * ```ts
 * const cli = cliPerTest();
 * it('...', async () => {
 *   expect((await cli('run', '--demo', '--max-step', '3', 'hi')).code).toBe(2);
 * });
 * ```
 */
export function cliPerTest(env: Readonly<Record<string, string>> = { OPENAI_API_KEY: '', RXHARNESS_DEMO_DELAY_MS: '0' }): RunCli {
  let sandbox: CliSandbox | undefined;
  beforeEach(async () => {
    sandbox = await cliSandbox();
  });
  afterEach(async () => {
    await sandbox?.cleanup();
    sandbox = undefined;
  });
  return async (...argv) => {
    if (sandbox === undefined) throw new Error('cliPerTest: run the CLI inside a test');
    const io = sandbox.io({ ...env });
    const code = await main(argv, io);
    return { code, stderr: io.stderrText(), stdout: io.stdoutText() };
  };
}
