/**
 * An engine on a {@link ScriptedModel}, with a temporary workspace and an empty home
 * folder, for delegation tests that need no network (and can run in fake time).
 *
 * @module
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, vi } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { AgentDefinition } from '../../src/subagent/agent-definition.js';
import { scriptedRoutes, type ScriptedRoute } from './scripted-routes.js';
import { makeWorkspace } from './tool-context.js';

/** An offline engine, its model, and the cleanup of its folders. */
export interface OfflineEngine {
  readonly engine: HarnessEngine;
  readonly model: ScriptedModel;
  cleanup(): Promise<void>;
}

/**
 * Builds the engine and finishes agent discovery (real file I/O) before returning, so a
 * test may switch to fake timers right after.
 */
export async function offlineEngine(
  routes: Readonly<Record<string, ScriptedRoute>>,
  agents: readonly AgentDefinition[],
  options: Partial<HarnessEngineOptions> = {},
): Promise<OfflineEngine> {
  const workspace = await makeWorkspace();
  const home = await realpath(await mkdtemp(join(tmpdir(), 'rxharness-home-')));
  const model = new ScriptedModel(scriptedRoutes(routes));
  const engine = new HarnessEngine({ model, workspace: workspace.dir, homeDir: home, ...options });
  for (const agent of agents) engine.agents.add(agent);
  await engine.agents.list();
  return {
    engine,
    model,
    cleanup: async () => {
      await workspace.cleanup();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/**
 * Registers the `afterEach` that puts real timers back, then closes each engine the current
 * test made with the returned start (the same as {@link offlineEngine}) and removes its
 * folders. Call once at the top of a test file. It replaces the `let o; afterEach(...)`
 * each file wrote out.
 *
 * @example
 * ```ts
 * const offline = offlineEnginePerTest();
 * it('...', async () => {
 *   const o = await offline({ main: () => ({ text: 'ok' }) }, []);
 *   vi.useFakeTimers(); // real again after the test, before the engine closes
 * });
 * ```
 */
export function offlineEnginePerTest(): typeof offlineEngine {
  let open: OfflineEngine[] = [];
  afterEach(async () => {
    vi.useRealTimers();
    const closing = open;
    open = [];
    for (const o of closing) {
      await o.engine.close();
      await o.cleanup();
    }
  });
  return async (...args) => {
    const made = await offlineEngine(...args);
    open.push(made);
    return made;
  };
}
