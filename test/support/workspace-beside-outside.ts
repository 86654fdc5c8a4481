/**
 * A fresh temporary folder for each test holding a workspace `ws` and, beside it, a folder
 * `outside` (both made empty), removed after the test: the place confinement tests put
 * files and links the workspace must not reach. It replaces the `let root; let ws; let
 * outside; beforeEach(make them); afterEach(remove)` the path and link tests wrote out.
 *
 * @module
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach } from 'vitest';
import { toolContextPerTest } from './tool-context-per-test.js';
import type { TestWorkspace } from './tool-context.js';

/** The current test's folders; see {@link workspaceBesideOutsidePerTest}. Reading one outside a test throws. */
export interface WorkspaceBesideOutside {
  /** The temporary folder holding both (`root.file('outside/a.txt', ...)` writes below it). */
  readonly root: TestWorkspace;
  /** `<root>/ws`, the workspace. */
  readonly ws: string;
  /** `<root>/outside`, beside the workspace, outside it. */
  readonly outside: string;
}

/**
 * Registers the hooks of `toolContextPerTest` (its folder is the root) and a `beforeEach`
 * making `ws` and `outside` in it. Call once at the top of a file or `describe`, before its
 * own hooks: those run after these, and its `afterEach` while the folders are still there.
 *
 * @example
 * ```ts
 * const dirs = workspaceBesideOutsidePerTest();
 * beforeEach(() => dirs.root.file('outside/secret.txt', 'secret'));
 * it('...', async () => {
 *   expect((await resolveWorkspacePath(dirs.ws, '../outside/secret.txt')).inside).toBe(false);
 * });
 * ```
 */
export function workspaceBesideOutsidePerTest(): WorkspaceBesideOutside {
  const fresh = toolContextPerTest();
  beforeEach(async () => {
    await mkdir(join(fresh.ws.dir, 'ws'));
    await mkdir(join(fresh.ws.dir, 'outside'));
  });
  return {
    get root() {
      return fresh.ws;
    },
    get ws() {
      return join(fresh.ws.dir, 'ws');
    },
    get outside() {
      return join(fresh.ws.dir, 'outside');
    },
  };
}
