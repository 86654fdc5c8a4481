/**
 * A fresh temporary workspace and a tool context on it for each test, the workspace removed
 * after the test. It replaces the `let ws; let context; beforeEach(make both);
 * afterEach(remove)` each tool test file wrote out.
 *
 * @module
 */
import { afterEach, beforeEach } from 'vitest';
import { createToolContext, makeWorkspace, type TestToolContext, type TestWorkspace } from './tool-context.js';

/** The current test's workspace and context; see {@link toolContextPerTest}. */
export interface ToolContextPerTest {
  /** The current test's workspace (made before it, removed after it). */
  readonly ws: TestWorkspace;
  /** A context whose workspace is {@link ToolContextPerTest.ws}. */
  readonly context: TestToolContext;
}

/**
 * Registers the `beforeEach` that makes the workspace and context and the `afterEach` that
 * removes the workspace. Call once at the top of a `describe`, before its own hooks: vitest
 * runs `afterEach` hooks last-registered first, so the file's own clean-up runs while the
 * workspace is still there.
 *
 * @example
 * ```ts
 * const fresh = toolContextPerTest();
 * it('...', async () => {
 *   await runTool(tool, { path: join(fresh.ws.dir, 'a.txt') }, fresh.context);
 * });
 * ```
 */
export function toolContextPerTest(): ToolContextPerTest {
  let current: ToolContextPerTest | undefined;
  beforeEach(async () => {
    const ws = await makeWorkspace();
    current = { ws, context: createToolContext({ workspace: ws.dir }) };
  });
  afterEach(async () => {
    const made = current;
    current = undefined;
    await made?.ws.cleanup();
  });
  const made = (): ToolContextPerTest => {
    if (!current) throw new Error('toolContextPerTest: no workspace yet (use it inside a test)');
    return current;
  };
  return {
    get ws() {
      return made().ws;
    },
    get context() {
      return made().context;
    },
  };
}
