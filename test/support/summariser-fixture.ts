/**
 * The two-server fixture of the compaction tests whose summary is written by a model of its
 * own: a fake server for the run's model and one for the summariser, an engine on both (the
 * `compaction` agent overridden to use the summariser, named `small-model`), a workspace and
 * a memory store. Everything is closed after the test: the engine, then both servers and the
 * workspace. It replaces the start-and-close each of those files wrote out.
 *
 * @module
 */
import { afterEach } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { defineAgent } from '../../src/subagent/define-agent.js';
import { FakeOpenAIServer, type FakeServerOptions } from './fake-openai-server.js';
import { openAIModelFor } from './openai-model.js';
import { makeWorkspace, type TestWorkspace } from './tool-context.js';

/** What a test starts: both servers, the engine and its store. */
export interface SummariserFixture {
  /** The run's model's server. */
  readonly run: FakeOpenAIServer;
  /** The summariser's server (its model is `small-model`). */
  readonly small: FakeOpenAIServer;
  readonly engine: HarnessEngine;
  readonly sessions: MemorySessionStore;
}

/** How to start one. */
export interface SummariserSetup {
  /** The summariser's server. */
  readonly summariser: FakeServerOptions;
  /** The run's server: by default a 16K llama-like one that answers `the answer`. */
  readonly run?: FakeServerOptions;
  /** The `compaction` agent's prompt (default: a short one). */
  readonly systemPrompt?: string;
}

/** Starts a fixture for the current test; it is closed after the test. */
export type StartSummariserFixture = (setup: SummariserSetup) => Promise<SummariserFixture>;

/** The run's server when a test names none. */
const RUN_SERVER: FakeServerOptions = { contextSize: 16_384, handler: () => ({ text: 'the answer' }) };

/**
 * Registers the `afterEach` that closes what the current test started, and returns the start.
 *
 * @example
 * ```ts
 * const startFixture = summariserFixturePerTest();
 * it('...', async () => {
 *   const { engine, small, sessions } = await startFixture({ summariser: { contextSize: 4_096, handler: () => ({ text: 'S' }) } });
 * });
 * ```
 */
export function summariserFixturePerTest(): StartSummariserFixture {
  let open: { engine?: HarnessEngine; servers: FakeOpenAIServer[]; workspace?: TestWorkspace }[] = [];
  afterEach(async () => {
    const closing = open;
    open = [];
    for (const { engine, servers, workspace } of closing) {
      await engine?.close();
      await Promise.all(servers.map((s) => s.close()));
      await workspace?.cleanup();
    }
  });
  return async ({ summariser, run: runServer = RUN_SERVER, systemPrompt = 'You summarise a conversation.' }) => {
    const opened: (typeof open)[number] = { servers: [] };
    open.push(opened);
    const run = await FakeOpenAIServer.start(runServer);
    opened.servers.push(run);
    const small = await FakeOpenAIServer.start(summariser);
    opened.servers.push(small);
    const workspace = await makeWorkspace();
    opened.workspace = workspace;
    const sessions = new MemorySessionStore();
    const engine = new HarnessEngine({ model: openAIModelFor(run), models: { small: openAIModelFor(small, { model: 'small-model' }) }, workspace: workspace.dir, homeDir: workspace.home, sessions });
    opened.engine = engine;
    engine.agents.add(defineAgent({ name: 'compaction', description: 'Summarises.', systemPrompt, model: 'small', override: true }));
    return { run, small, engine, sessions };
  };
}
