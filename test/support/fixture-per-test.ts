/**
 * A {@link DelegationFixture} for each test that asks for one, closed after that test: first
 * the engines made with its `engine()` (closing one ends its MCP server processes), then the
 * fake server and the folders. It replaces the `afterEach` each MCP test file wrote out.
 *
 * @module
 */
import { afterEach } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { startDelegationFixture, type AgentRoute, type DelegationFixture } from './delegation-fixture.js';

/** Starts a fixture for the current test; it is closed after the test. */
export type StartFixture = (routes?: Readonly<Record<string, AgentRoute>>) => Promise<DelegationFixture>;

/**
 * Registers the `afterEach` that closes what the current test started, and returns the start.
 *
 * @example
 * ```ts
 * const startFixture = delegationFixturePerTest();
 * it('...', async () => {
 *   const f = await startFixture({ main: steps({ text: 'done' }) });
 *   const engine = f.engine({ mcpServers }); // closed after the test, before the fixture
 * });
 * ```
 */
export function delegationFixturePerTest(): StartFixture {
  let open: { fixture: DelegationFixture; engines: HarnessEngine[] }[] = [];
  afterEach(async () => {
    const closing = open;
    open = [];
    for (const { fixture, engines } of closing) {
      for (const engine of engines) await engine.close();
      await fixture.close();
    }
  });
  return async (routes = {}) => {
    const fixture = await startDelegationFixture(routes);
    const engines: HarnessEngine[] = [];
    open.push({ fixture, engines });
    return {
      ...fixture,
      engine: (options, agents) => {
        const engine = fixture.engine(options, agents);
        engines.push(engine);
        return engine;
      },
    };
  };
}
