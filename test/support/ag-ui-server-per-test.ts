/**
 * An `agUiHandler` at `/ag-ui`, its engine on the fake OpenAI-compatible server behind the
 * protocol tests' token, for each test that asks for one, closed after that test. It replaces
 * the `let served; afterEach(close); const serve = ...` each AG-UI test file wrote out.
 *
 * @module
 */
import { afterEach } from 'vitest';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import { agUiHandler, type AgUiHandlerOptions } from '../../src/protocols/ag-ui/ag-ui-handler.js';
import { serveProtocol, type ProtocolServer } from '../protocols/protocol-kit.js';
import type { AgentRoute } from './delegation-fixture.js';

/** How {@link AgUiServerPerTest.serve} sets the server up. */
export interface AgUiServeOptions {
  /** Options of the engine (its `permissionRules`, `mcpServers`). */
  readonly engine?: Partial<HarnessEngineOptions>;
  /** Options of the handler besides its path and token check (`clientWaitMs`, `maxRuns`). */
  readonly handler?: Omit<AgUiHandlerOptions, 'path' | 'authorize'>;
}

/** The current test's AG-UI server; see {@link agUiServerPerTest}. */
export interface AgUiServerPerTest {
  /** The server the current test started, until it is closed. */
  readonly served: ProtocolServer | undefined;
  /** Serves the agents' scripted `routes` (the test agent `alpha` is there too); resolves to the server. */
  serve(routes: Readonly<Record<string, AgentRoute>>, options?: AgUiServeOptions): Promise<ProtocolServer>;
  /** Closes the server now (a test that looks at what closing does to its runs). */
  close(): Promise<void>;
}

/**
 * Registers the `afterEach` that closes the current test's server, and returns the way to
 * start one. Call once at the top of a test file.
 *
 * @example
 * ```ts
 * const agUi = agUiServerPerTest();
 * it('...', async () => {
 *   const { url } = await agUi.serve({ main: () => ({ text: 'hi' }) }, { engine: { permissionRules } });
 * });
 * ```
 */
export function agUiServerPerTest(): AgUiServerPerTest {
  let served: ProtocolServer | undefined;
  const close = async (): Promise<void> => {
    const open = served;
    served = undefined;
    await open?.close();
  };
  afterEach(close);
  return {
    get served() {
      return served;
    },
    async serve(routes, options = {}) {
      served = await serveProtocol('/ag-ui', routes, (engine, authorize) => agUiHandler(engine, { ...options.handler, path: '/ag-ui', authorize }), options.engine);
      return served;
    },
    close,
  };
}
