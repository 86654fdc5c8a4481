/**
 * Helpers of the protocol tests: an engine on the fake OpenAI-compatible server (through the
 * real `openai` client), served by a protocol handler behind a bearer token on 127.0.0.1, a
 * script that scripts a `multitask` of three, and a runner for client scripts in their own
 * process (each prints what its protocol's own client received, one JSON line each).
 *
 * @module
 */
import { execFile } from 'node:child_process';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import { startDelegationFixture, type AgentRoute, type DelegationFixture } from '../support/delegation-fixture.js';
import { testAgent } from '../support/agent-turns.js';

const run = promisify(execFile);

/** The token every protocol test server asks for. */
export const TOKEN = 'protocol-test-token-0123456789';

/** The three tasks of the scripted `multitask`, each with its own description. */
export const TASKS = [
  { index: 1, agent_name: 'alpha', prompt: 'count the files', description: 'Count the files' },
  { index: 2, agent_name: 'alpha', prompt: 'read the README', description: 'Read the README' },
  { index: 3, agent_name: 'alpha', prompt: 'list the tests', description: 'List the tests' },
] as const;

/** Routes: the main agent calls `multitask` with {@link TASKS}, then answers; each child answers its prompt. */
export const MULTITASK_ROUTES: Readonly<Record<string, AgentRoute>> = {
  main: (turn) =>
    turn.step === 1
      ? { text: 'Delegating.', toolCalls: [{ id: 'call_multi', name: 'multitask', arguments: { tasks: TASKS } }] }
      : { text: `All three done: ${turn.toolResults.length} results.` },
  alpha: (turn) => ({ text: `alpha did: ${turn.prompt}` }),
};

/** An engine behind a protocol handler, on the fake server. */
export interface ProtocolServer {
  readonly fixture: DelegationFixture;
  readonly engine: HarnessEngine;
  /** e.g. `http://127.0.0.1:4242/ag-ui`. */
  readonly url: string;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Starts the fixture (with `routes` and the test agent `alpha`) and serves `handlerOf(engine)` at `path`. */
export async function serveProtocol(
  path: string,
  routes: Readonly<Record<string, AgentRoute>>,
  handlerOf: (engine: HarnessEngine, authorize: (req: IncomingMessage) => boolean) => Handler,
  engineOptions: Partial<HarnessEngineOptions> = {},
): Promise<ProtocolServer> {
  const fixture = await startDelegationFixture(routes);
  const engine = fixture.engine(engineOptions, [testAgent('alpha')]);
  const authorize = (req: IncomingMessage): boolean => req.headers.authorization === `Bearer ${TOKEN}`;
  const handler = handlerOf(engine, authorize);
  const server = http.createServer((req, res) => {
    if (!handler(req, res)) {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    fixture,
    engine,
    url: `http://127.0.0.1:${port}${path}`,
    close: async () => {
      await engine.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fixture.close();
    },
  };
}

/** Runs a client script (`node --import tsx <script> <JSON>`) and returns the JSON lines it printed. */
export async function runClient<T = Record<string, unknown>>(script: string, input: unknown): Promise<T[]> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', script, JSON.stringify(input)], { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}
