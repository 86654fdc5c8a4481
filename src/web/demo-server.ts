import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sseHandler } from '../adapters/sse.js';
import { createDemoModel } from '../demo/demo-model.js';
import { HarnessEngine } from '../engine/harness-engine.js';
import type { ChatModel } from '../model/chat-model.js';
import { loadDemoPage } from './demo-page.js';

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
}

/** A running demo server. */
export interface DemoServer {
  /** The page's address, e.g. `http://127.0.0.1:4173/`. */
  readonly url: string;
  /** Drops every connection (which aborts the runs streaming to them), stops listening, closes the engine. */
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
 * Serves the browser page of the live task tree: `GET /` is one self-contained HTML page;
 * `GET /events?prompt=...` streams a run of the engine's main agent over server-sent events
 * ({@link sseHandler}), which the page reduces and draws. A client that disconnects (the tab
 * closes, the page's Stop button) aborts its run and every task of it.
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
  const page = await loadDemoPage();
  const engine = new HarnessEngine({
    model: options.model ?? createDemoModel(),
    ...(options.workspace !== undefined ? { workspace: options.workspace } : {}),
    ...(options.homeDir !== undefined ? { homeDir: options.homeDir } : {}),
  });
  const events = sseHandler((req) => {
    const prompt = new URL(req.url ?? '/', 'http://localhost').searchParams.get('prompt')?.trim();
    if (!prompt) throw new Error('Add a prompt to the URL: /events?prompt=...');
    return engine.stream(prompt);
  });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/' && path !== '/events') return plain(res, 404, `Not found: ${path}. The page is at /.`);
    if (req.method !== 'GET') return plain(res, 405, `Only GET is supported (got ${req.method ?? '?'}).`, { allow: 'GET' });
    if (path === '/events') return events(req, res);
    res.writeHead(200, PAGE_HEADERS);
    res.end(page);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await engine.close();
    throw error;
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}/`,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => engine.close())),
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
