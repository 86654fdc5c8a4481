/**
 * A fresh workspace for each test and the `<workspace>-home` folder beside it (where a store
 * given `home` keeps its grant key), both removed after the test. It replaces the
 * `let ws; beforeEach(make it); afterEach(remove it and its -home)` each session test wrote out.
 *
 * @module
 */
import { rm } from 'node:fs/promises';
import { afterEach, beforeEach } from 'vitest';
import { toolContextPerTest } from './tool-context-per-test.js';

/** The current test's folders; see {@link workspaceHomePerTest}. */
export interface WorkspaceHomePerTest {
  /** The workspace (made before the test, removed after it); reading it outside a test throws. */
  readonly dir: string;
  /** `<dir>-home`, beside the workspace, outside it: made by whatever writes there, removed after the test. */
  readonly home: string;
}

/**
 * Registers the hooks of `toolContextPerTest` (the stores need only its folder) and an
 * `afterEach` removing `<dir>-home`. Call once at the top of a file or `describe`, before
 * its own hooks: `afterEach` hooks run last-registered first, so the file's own clean-up
 * runs while the folders are still there.
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
  let home: string | undefined;
  // Noted before the test: the workspace is gone by the time this file's afterEach runs.
  beforeEach(() => {
    home = `${fresh.ws.dir}-home`;
  });
  afterEach(async () => {
    const made = home;
    home = undefined;
    if (made) await rm(made, { recursive: true, force: true });
  });
  return {
    get dir() {
      return fresh.ws.dir;
    },
    get home() {
      if (!home) throw new Error('workspaceHomePerTest: no workspace yet (use it inside a test)');
      return home;
    },
  };
}
