import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDemoModel } from '../demo/demo-model.js';
import type { HarnessEngineOptions } from '../engine/engine-options.js';
import { HarnessEngine } from '../engine/harness-engine.js';
import { RunSlots } from '../http/run-slots.js';
import { runsHandler } from '../http/runs-handler.js';
import type { ChatModel } from '../model/chat-model.js';
import { a2aHandler } from '../protocols/a2a/a2a-handler.js';
import { agUiHandler } from '../protocols/ag-ui/ag-ui-handler.js';
import { chatHandler } from '../protocols/ui-message-stream/chat-handler.js';
import { loadDemoPage } from './demo-page.js';
import { sendPlain } from './serve-headers.js';
import { createServeServer, type ServeTimeouts } from './serve-http-server.js';
import { demoRequestHandler } from './serve-request.js';
import { checkServeToken, newServeToken, requestHasToken, tokenCookieName } from './serve-token.js';
import { isLoopbackAddress } from './trusted-host.js';

/** Options of {@link startDemoServer}. */
export interface DemoServerOptions {
  /** TCP port; default 4173; 0 picks a free one. */
  readonly port?: number;
  /** Interface to listen on; default `127.0.0.1` (the runs use tools on `workspace`: keep it local). */
  readonly host?: string;
  /** The main agent's model; default the offline demo model ({@link createDemoModel}). */
  readonly model?: ChatModel;
  /** The folder the runs' tools work in; default `process.cwd()`. */
  readonly workspace?: string;
  /** Whose `~/.rxharness/agents` is read; default `os.homedir()`. */
  readonly homeDir?: string;
  /**
   * The secret every request but the page's must carry (16 to 512 characters of
   * `A-Za-z0-9-._~+/`); default a new random one. Needed to listen on an address other than
   * loopback.
   */
  readonly token?: string;
  /** Runs started over HTTP that may run at once; more are answered `429`. Default 16 (see `RunsHandlerOptions.maxRuns`). */
  readonly maxRuns?: number;
  /**
   * Requests that start no run (answers to approvals, A2A reads of tasks) each of the page's,
   * AG-UI and A2A routes reads at once, on slots of its own besides `maxRuns`; more are
   * answered `429`. Default 8 (see `RunsHandlerOptions.maxControlRequests`).
   */
  readonly maxControlRequests?: number;
  /** Milliseconds a request body may take to arrive; a slower one is answered `408`. Default 10,000. */
  readonly bodyTimeoutMs?: number;
  /** Any other engine options (steps, the pool size, an `approve` handler...). */
  readonly engine?: Omit<HarnessEngineOptions, 'model' | 'workspace' | 'homeDir'>;
  /**
   * How long a client may take to send its request's headers, and the whole request; default
   * `SERVE_TIMEOUTS` (10 s and 30 s). For tests, which shorten them to see them fire.
   *
   * @internal
   */
  readonly timeouts?: ServeTimeouts;
}

/** A running demo server. */
export interface DemoServer {
  /**
   * The page's address with its token, e.g. `http://127.0.0.1:4173/?token=...`: opening it
   * keeps the token in a cookie and drops it from the address. Show it only to its user.
   */
  readonly url: string;
  /** The secret the API routes require (`Authorization: Bearer <token>`, or the page's cookie). */
  readonly token: string;
  /** Whether it listens on a loopback address only (else it is reachable from the network). */
  readonly loopback: boolean;
  /** The engine running the page's runs. */
  readonly engine: HarnessEngine;
  /** Closes the engine (which cancels its runs: their pages show them cancelled), then stops listening and drops every connection. */
  close(): Promise<void>;
}

/** The largest TCP port. */
const MAX_PORT = 65_535;

/**
 * Serves the browser page of the live task tree and the runs it shows: `GET /` is one
 * self-contained HTML page; `/api/runs...` are the routes of {@link runsHandler}, which the
 * page uses through `rxharness/client`; `POST /ag-ui` (AG-UI), `POST /api/chat` (the AI SDK's
 * `useChat`) and the A2A routes serve the same engine to other frontends and agents
 * (docs/protocols.md). A run lives on the server: a page that closes or
 * loses its connection leaves it going, and `?run=<id>` shows it again, from any tab; the
 * page's Stop button cancels it. Approvals are answered on the page. The page never starts a
 * run by itself: only its Run button does (`?prompt=` merely fills the box).
 *
 * Every request but the page's needs the secret `token` (a new random one unless given):
 * `url` carries it once, and opening it keeps it in an `HttpOnly; SameSite=Strict` cookie;
 * programs send `Authorization: Bearer <token>`. No answer may be framed by another site.
 * Bound to a loopback address (the default; any spelling, `127.1` or `::ffff:127.0.0.1`
 * too), it answers only requests addressed to a loopback name (`Host: localhost`,
 * `127.0.0.1`, `[::1]`): a web page elsewhere cannot reach the runs through a DNS name it
 * points at 127.0.0.1. Any other address is refused unless a `token` is given.
 *
 * @example
 * ```ts
 * const server = await startDemoServer({ port: 0 });
 * console.log(`open ${server.url}`); // http://127.0.0.1:<port>/?token=...
 * // later
 * await server.close();
 * ```
 */
export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  const port = checkPort(options.port ?? 4173);
  const host = options.host ?? '127.0.0.1';
  const token = options.token !== undefined ? checkServeToken(options.token, 'token') : newServeToken();
  const page = await loadDemoPage();
  const engine = new HarnessEngine({
    ...options.engine,
    model: options.model ?? createDemoModel(),
    ...(options.workspace !== undefined ? { workspace: options.workspace } : {}),
    ...(options.homeDir !== undefined ? { homeDir: options.homeDir } : {}),
  });
  // One cap over every route that starts runs (the page's, AG-UI, chat, A2A): --max-runs is the server's.
  const slots = new RunSlots(options.maxRuns ?? 16);
  // Each handler that reads requests starting no run keeps its own pool of this size (chat reads none).
  const control = options.maxControlRequests !== undefined ? { maxControlRequests: options.maxControlRequests } : {};
  const runs = runsHandler(engine, {
    basePath: '/api',
    fallthrough: true,
    maxRuns: slots,
    ...control,
    ...(options.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: options.bodyTimeoutMs } : {}),
  });
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => sendPlain(res, 503, 'Starting.');
  const server = createServeServer((req, res) => handle(req, res), options.timeouts);
  let address: AddressInfo;
  try {
    await listen(server, port, host);
    address = server.address() as AddressInfo;
    if (!isLoopbackAddress(address.address) && options.token === undefined) {
      throw new Error(
        `refusing to serve on ${address.address} (${host}) without a token of your choosing: anyone who can reach that address could run commands in the workspace. Give a token of your own (rxharness serve: --token or RXHARNESS_TOKEN; startDemoServer: the token option), or listen on 127.0.0.1`,
      );
    }
  } catch (error) {
    server.close();
    await engine.close();
    throw error;
  }
  const loopback = isLoopbackAddress(address.address);
  const cookieName = tokenCookieName(address.port);
  // A2A: the agent card at /.well-known/agent-card.json, JSON-RPC at /a2a (docs/protocols.md). The
  // token is checked before any route; given here too, so the card says requests need it.
  const a2a = a2aHandler(engine, {
    fallthrough: true,
    authorize: (req) => requestHasToken(req, token, cookieName),
    maxRuns: slots,
    ...control,
    ...(options.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: options.bodyTimeoutMs } : {}),
  });
  // AG-UI at POST /ag-ui, the AI SDK's UI message stream (useChat) at POST /api/chat (docs/protocols.md).
  const limits = {
    maxRuns: slots,
    ...(options.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: options.bodyTimeoutMs } : {}),
  };
  const agUi = agUiHandler(engine, { path: '/ag-ui', ...limits, ...control });
  const chat = chatHandler(engine, { path: '/api/chat', ...limits });
  handle = demoRequestHandler({ page, runs, protocols: [a2a, agUi, chat], token, cookieName, checkHost: loopback });
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shown}:${address.port}/?token=${token}`,
    token,
    loopback,
    engine,
    close: () =>
      (closing ??= engine.close().then(
        () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      )),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function checkPort(port: number): number {
  if (!Number.isInteger(port) || port < 0 || port > MAX_PORT) {
    throw new RangeError(`port must be a whole number from 0 to ${MAX_PORT} (0 = any free port), got ${String(port)}`);
  }
  return port;
}
