/**
 * Plays a model that makes the given tool calls, one a step, through the real `openai`
 * client and the fake OpenAI-compatible server, then answers `done`: the attacks on the
 * permission layer run the whole engine, as a hostile model would drive it.
 *
 * @module
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { collect } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { homeBeside } from '../support/tool-context.js';

/** One call the hostile model makes. */
export interface HostileCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** A fresh real folder for a workspace (and home), removed by `cleanup`. */
export async function tempWorkspace(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Runs an engine on `workspace` whose model makes `calls` one per step, then ends with
 * `done`. Returns every event of the run.
 */
export async function runHostileCalls(
  workspace: string,
  calls: readonly HostileCall[],
  options: Partial<HarnessEngineOptions> = {},
): Promise<AgentEvent[]> {
  const server = await FakeOpenAIServer.start({
    handler: (request) => {
      const answered = (request.body.messages ?? []).filter((m) => m.role === 'tool').length;
      const call = calls[answered];
      return call ? { toolCalls: [call] } : { text: 'done' };
    },
  });
  try {
    const engine = new HarnessEngine({ model: openAIModelFor(server), workspace, homeDir: homeBeside(workspace), ...options });
    return await collect(engine.stream('do it'));
  } finally {
    await server.close();
  }
}
