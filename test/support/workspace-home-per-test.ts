/**
 * A fresh workspace for each test and the `<workspace>-home` folder beside it (where a store
 * given `home` keeps its grant key), both removed after the test. It replaces the
 * `let ws; beforeEach(make it); afterEach(remove it and its -home)` each session test wrote out.
 *
 * @module
 */
import { toolContextPerTest } from './tool-context-per-test.js';

/** The current test's folders; see {@link workspaceHomePerTest}. */
export interface WorkspaceHomePerTest {
  /** The workspace (made before the test, removed after it); reading it outside a test throws. */
  readonly dir: string;
  /** `<dir>-home`, beside the workspace, outside it: made by whatever writes there, removed after the test. */
  readonly home: string;
}

/**
 * Registers the hooks of `toolContextPerTest`: its workspace's `cleanup` removes the home
 * too (see `homeBeside`). Call once at the top of a file or `describe`, before its own hooks:
 * `afterEach` hooks run last-registered first, so the file's own clean-up runs while the
 * folders are still there.
 *
 * @example
 * ```ts
 * const ws = workspaceHomePerTest();
 * it('...', async () => {
 *   const store = new FileSessionStore(ws.dir, { home: ws.home });
 * });
 * ```
 */
export function workspaceHomePerTest(): WorkspaceHomePerTest {
  const fresh = toolContextPerTest();
  return {
    get dir() {
      return fresh.ws.dir;
    },
    get home() {
      return fresh.ws.home;
    },
  };
}
