/**
 * An `a2aHandler` on a real `http` server, its engine on a {@link DelegationFixture}, for each
 * test that asks for one: the server (and its connections) closed after that test, then the
 * engine, then the fixture. It replaces the `let fixture, engine, server; afterEach(...)` the
 * A2A server tests wrote out.
 *
 * @module
 */
import type { Server } from 'node:http';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { A2AHandlerOptions } from '../../src/protocols/a2a/a2a-handler-options.js';
import { a2aHandler } from '../../src/protocols/a2a/a2a-handler.js';
import type { AgentRoute, DelegationFixture } from './delegation-fixture.js';
import { delegationFixturePerTest } from './fixture-per-test.js';
import { httpServerPerTest } from './http-server-per-test.js';

/** What {@link A2AServerPerTest.serve} started. */
export interface ServedA2A {
  readonly fixture: DelegationFixture;
  readonly engine: HarnessEngine;
  readonly server: Server;
  /** The server's base URL (`http://127.0.0.1:<port>`); the handler answers at `<url>/a2a`. */
  readonly url: string;
}

/** The current test's A2A server; see {@link a2aServerPerTest}. */
export interface A2AServerPerTest {
  /** Serves the agents' scripted `routes` with `a2aHandler(engine, options)`. */
  serve(routes: Readonly<Record<string, AgentRoute>>, options?: A2AHandlerOptions): Promise<ServedA2A>;
}

/**
 * Registers the `afterEach` hooks that close what the current test started, and returns the
 * way to start it. Call once at the top of a test file.
 *
 * @example
 * ```ts
 * const a2a = a2aServerPerTest();
 * it('...', async () => {
 *   const { engine, url } = await a2a.serve({ main: () => ({ text: 'done' }) });
 * });
 * ```
 */
export function a2aServerPerTest(): A2AServerPerTest {
  // Registered first, so closed last (hooks run as a stack): the server goes before its engine.
  const startFixture = delegationFixturePerTest();
  const http = httpServerPerTest();
  return {
    async serve(routes, options = {}) {
      const fixture = await startFixture(routes);
      const engine = fixture.engine();
      const url = await http.serve(a2aHandler(engine, options));
      return { fixture, engine, server: http.server!, url };
    },
  };
}
