/**
 * An engine served by `runsHandler` under `/api` behind a bearer token, on the offline
 * scripted model or on a delegation fixture's fake OpenAI server: what the conversation
 * client tests and the cancel-task route tests each set up and tore down alike.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { afterEach } from 'vitest';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import { serveRuns, type RunsServer } from '../http/http-kit.js';
import { startDelegationFixture, type AgentRoute, type DelegationFixture } from './delegation-fixture.js';

/** A served engine on a fixture's fake server, and the fixture. */
export interface ServedRoutes {
  readonly served: RunsServer;
  readonly fixture: DelegationFixture;
}

/** Serves engines behind one token for the tests of the calling file. */
export interface TokenRunsApi {
  /** The `authorization` header a client sends. */
  readonly headers: Readonly<{ authorization: string }>;
  /** An engine on `options` served under `/api` behind the token (closed after the test). */
  serve(options: Omit<HarnessEngineOptions, 'workspace'>): Promise<RunsServer>;
  /** A delegation fixture answering `routes` and an engine on its model and home, served as {@link serve} does. */
  serveRoutes(routes: Readonly<Record<string, AgentRoute>>): Promise<ServedRoutes>;
}

/** Registers, in the calling file, the closing after each test of its server, then its fixture. */
export function useTokenRunsApi(token: string): TokenRunsApi {
  const authorize = (req: IncomingMessage): boolean => req.headers.authorization === `Bearer ${token}`;
  let opened: { served?: RunsServer; fixture?: DelegationFixture } = {};
  afterEach(async () => {
    const { served, fixture } = opened;
    opened = {};
    await served?.close();
    await fixture?.close();
  });
  const serve = async (options: Omit<HarnessEngineOptions, 'workspace'>): Promise<RunsServer> => {
    const served = await serveRuns(options, { basePath: '/api', authorize });
    opened = { ...opened, served };
    return served;
  };
  return {
    headers: { authorization: `Bearer ${token}` },
    serve,
    serveRoutes: async (routes) => {
      const fixture = await startDelegationFixture(routes);
      opened = { fixture };
      return { fixture, served: await serve({ model: fixture.model(), homeDir: fixture.home }) };
    },
  };
}
