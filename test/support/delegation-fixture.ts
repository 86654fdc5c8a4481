/**
 * End-to-end delegation runs: a {@link FakeOpenAIServer} scripted per agent, a temporary
 * workspace and an empty home folder (so the user's `~/.rxharness` never leaks in), and
 * engines whose models talk to the server through the real `openai` client.
 *
 * @module
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import type { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import type { AgentDefinition } from '../../src/subagent/agent-definition.js';
import { FakeOpenAIServer, type FakeReply, type RecordedRequest } from './fake-openai-server.js';
import { readTurn, type Turn } from './agent-turns.js';
import { openAIModelFor } from './openai-model.js';
import { makeWorkspace, type TestWorkspace } from './tool-context.js';

/** Answers one agent's requests. */
export type AgentRoute = (turn: Turn, request: RecordedRequest) => FakeReply | Promise<FakeReply>;

/** The model id the main model sends. */
export const MAIN_MODEL = 'main-model';

/** The {@link Turn} of a request the fake server recorded. */
export function turnOf(request: RecordedRequest): Turn {
  const names = (request.body.tools ?? []).flatMap((t) => (t.function ? [t.function.name] : []));
  return readTurn(request.body.messages ?? [], names);
}

/** A server, a workspace, a home folder, and engines wired to them. */
export interface DelegationFixture {
  readonly server: FakeOpenAIServer;
  readonly workspace: TestWorkspace;
  readonly home: string;
  /** Replaces the routes (one per agent name; `main` for the main agent; `*` for any other). */
  route(routes: Readonly<Record<string, AgentRoute>>): void;
  /** An `OpenAIChatModel` on the server ({@link openAIModelFor}); no retries unless asked. */
  model(id?: string, maxRetries?: number): OpenAIChatModel;
  /** An engine on the fixture's workspace and home, with `agents` added. */
  engine(options?: Partial<HarnessEngineOptions>, agents?: readonly AgentDefinition[]): HarnessEngine;
  /** The recorded requests of one agent, in arrival order. */
  requestsOf(agent: string): RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Starts the fixture. Routes are keyed by agent name (`main` for the main agent, `*` for any
 * agent without its own route). A request from an agent without a route fails the test loudly: the
 * handler throws, which the server answers with a non-retried 500 naming the agent.
 */
export async function startDelegationFixture(routes: Readonly<Record<string, AgentRoute>> = {}): Promise<DelegationFixture> {
  let current = routes;
  const server = await FakeOpenAIServer.start({
    handler: (request) => {
      const turn = turnOf(request);
      const route = current[turn.agent] ?? current['*'];
      if (!route) throw new Error(`no route for agent "${turn.agent}"`);
      return route(turn, request);
    },
  });
  const workspace = await makeWorkspace();
  const home = await realpath(await mkdtemp(join(tmpdir(), 'rxharness-home-')));
  const model = (id = MAIN_MODEL, maxRetries = 0): OpenAIChatModel => openAIModelFor(server, { model: id, maxRetries });
  return {
    server,
    workspace,
    home,
    route: (next) => {
      current = next;
    },
    model,
    engine: (options = {}, agents = []) => {
      const engine = new HarnessEngine({ model: model(), workspace: workspace.dir, homeDir: home, ...options });
      for (const agent of agents) engine.agents.add(agent);
      return engine;
    },
    requestsOf: (agent) => server.requests.filter((r) => turnOf(r).agent === agent),
    close: async () => {
      await server.close();
      await workspace.cleanup();
      await rm(home, { recursive: true, force: true });
    },
  };
}
