import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDemoModel } from '../demo/demo-model.js';
import type { HarnessEngineOptions } from '../engine/engine-options.js';
import { HarnessEngine } from '../engine/harness-engine.js';
import { runsHandler } from '../http/runs-handler.js';
import type { ChatModel } from '../model/chat-model.js';
import { loadDemoPage } from './demo-page.js';
import { isLoopback, trustedHost } from './trusted-host.js';

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
  /** Any other engine options (steps, the pool size, an `approve` handler...). */
  readonly engine?: Omit<HarnessEngineOptions, 'model' | 'workspace' | 'homeDir'>;
}

/** A running demo server. */
export interface DemoServer {
  /** The page's address, e.g. `http://127.0.0.1:4173/`. */
  readonly url: string;
  /** The engine running the page's runs. */
  readonly engine: HarnessEngine;
  /** Closes the engine (which cancels its runs: their pages show them cancelled), then stops listening and drops every connection. */
  close(): Promise<void>;
}

/** The largest TCP port. */
const MAX_PORT = 65_535;
/** Security headers of the page: it loads nothing from elsewhere, and may only talk to this server. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'",
} as const;

/**
 * Serves the browser page of the live task tree and the runs it shows: `GET /` is one
 * self-contained HTML page; `/api/runs...` are the routes of {@link runsHandler}, which the
 * page uses through `rxharness/client`. A run lives on the server: a page that closes or
 * loses its connection leaves it going, and `?run=<id>` shows it again, from any tab; the
 * page's Stop button cancels it. Approvals are answered on the page.
 *
 * Bound to a loopback address (the default), it answers only requests addressed to a
 * loopback name (`Host: localhost`, `127.0.0.1`, `[::1]`): a web page elsewhere cannot reach
 * the runs through a DNS name it points at 127.0.0.1.
 *
 * @example
 * ```ts
 * const server = await startDemoServer({ port: 0 });
 * console.log(`open ${server.url}?autostart=1`);
 * // later
 * await server.close();
 * ```
 */
export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  const port = checkPort(options.port ?? 4173);
  const host = options.host ?? '127.0.0.1';
  const page = await loadDemoPage();
  const engine = new HarnessEngine({
    ...options.engine,
    model: options.model ?? createDemoModel(),
    ...(options.workspace !== undefined ? { workspace: options.workspace } : {}),
    ...(options.homeDir !== undefined ? { homeDir: options.homeDir } : {}),
  });
  const runs = runsHandler(engine, { basePath: '/api', fallthrough: true });
  const checkHost = isLoopback(host);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (checkHost && !trustedHost(req.headers.host)) return plain(res, 403, 'This server answers only requests for localhost.');
    if (runs(req, res)) return;
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== '/') return plain(res, 404, `Not found: ${path}. The page is at /.`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, `Only GET is supported (got ${req.method ?? '?'}).`, { allow: 'GET' });
    res.writeHead(200, PAGE_HEADERS);
    res.end(req.method === 'HEAD' ? undefined : page);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await engine.close();
    throw error;
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shown}:${address.port}/`,
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

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(`${text}\n`);
}

function checkPort(port: number): number {
  if (!Number.isInteger(port) || port < 0 || port > MAX_PORT) {
    throw new RangeError(`port must be a whole number from 0 to ${MAX_PORT} (0 = any free port), got ${String(port)}`);
  }
  return port;
}
