/**
 * A temporary workspace (with a few files for the demo to find) and an empty home folder
 * for one CLI test.
 *
 * @module
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';
import { testCliIO, type TestCliIO } from './test-cli-io.js';

/** The folders a CLI test runs in. */
export interface CliSandbox {
  readonly workspace: TestWorkspace;
  readonly home: string;
  /** A test IO running in the workspace, with the sandbox's home and these variables. */
  io(env?: Record<string, string>, options?: { ttyStdin?: boolean }): TestCliIO;
  cleanup(): Promise<void>;
}

/** Creates the sandbox; the workspace holds `package.json`, `README.md` and `src/a.ts` (one TODO). */
export async function cliSandbox(): Promise<CliSandbox> {
  const workspace = await makeWorkspace('rxharness-cli-ws-');
  await workspace.file('package.json', '{ "name": "sample" }\n');
  await workspace.file('README.md', '# Sample\n');
  await workspace.file('src/a.ts', '// TODO: finish\nexport const a = 1;\n');
  const home = await realpath(await mkdtemp(join(tmpdir(), 'rxharness-cli-home-')));
  return {
    workspace,
    home,
    io: (env = {}, options = {}) => testCliIO({ env: { HOME: home, ...env }, cwd: workspace.dir, ...options }),
    cleanup: async () => {
      await workspace.cleanup();
      await rm(home, { recursive: true, force: true });
    },
  };
}
