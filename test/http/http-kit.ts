/**
 * Helpers for the runs-over-HTTP tests: an engine served by `runsHandler` on a real
 * loopback server, a small SSE reader over `http` (headers, pauses, disconnects), and JSON
 * requests through Node's fetch.
 *
 * @module
 */
import http, { type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import { runsHandler } from '../../src/http/runs-handler.js';
import type { RunsHandlerOptions } from '../../src/http/runs-handler-options.js';
import type { ProtocolRequestHandler } from '../../src/protocols/protocol-route.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

/** An engine behind `runsHandler` on 127.0.0.1. */
export interface RunsServer {
  readonly engine: HarnessEngine;
  readonly server: Server;
  /** e.g. `http://127.0.0.1:4242` (no trailing slash). */
  readonly url: string;
  /** The server side of every connection open now. */
  readonly sockets: Set<Socket>;
  /** How many event streams (`GET .../events`) the server is answering now. */
  openStreams(): number;
  close(): Promise<void>;
}

/**
 * Starts an engine (in a fresh workspace) served by `runsHandler(engine, handlerOptions)`,
 * after the handlers `routes(engine)` gives (e.g. a protocol handler at its own path), each
 * taking the requests it returns `true` for.
 */
export async function serveRuns(
  options: Omit<HarnessEngineOptions, 'workspace'>,
  handlerOptions: RunsHandlerOptions = {},
  routes: (engine: HarnessEngine) => readonly ProtocolRequestHandler[] = () => [],
): Promise<RunsServer> {
  const ws: TestWorkspace = await makeWorkspace();
  const engine = new HarnessEngine({ workspace: ws.dir, homeDir: ws.home, ...options });
  const runs = runsHandler(engine, handlerOptions);
  const extra = routes(engine);
  const server = http.createServer((req, res) => {
    if (!extra.some((route) => route(req, res))) runs(req, res);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  let streams = 0;
  server.on('request', (req: IncomingMessage, res: http.ServerResponse) => {
    if (!req.url?.includes('/events')) return;
    streams += 1;
    res.on('close', () => (streams -= 1));
  });
  const url = await listen(server);
  return {
    engine,
    server,
    url,
    sockets,
    openStreams: () => streams,
    close: async () => {
      await engine.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ws.cleanup();
    },
  };
}

/** Listens on a free loopback port; resolves the base URL. */
export function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** POSTs JSON (or raw text with `raw`; more `headers`, e.g. a token), returning the status, headers and parsed body. */
export async function postJson(
  url: string,
  body: unknown,
  init: { raw?: boolean; contentType?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': init.contentType ?? 'application/json', ...init.headers },
    body: init.raw ? (body as string) : JSON.stringify(body),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.startsWith('application/json') === true;
  return { status: response.status, headers: response.headers, body: json ? (JSON.parse(text) as unknown) : text || undefined };
}

/** One message (or comment) of an event stream. */
export interface SseFrame {
  readonly id?: string;
  readonly event?: string;
  readonly data?: string;
  readonly comment?: string;
}

/** An open event stream. */
export interface SseStream {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly frames: SseFrame[];
  /** The `data:` of the run's events (no `event:` line), parsed. */
  events(): SequencedEvent[];
  /** Resolves with the first frame (already received or future) that matches. */
  waitFor(match: (frame: SseFrame) => boolean): Promise<SseFrame>;
  /** Resolves when the response ends (or the connection drops). */
  readonly ended: Promise<void>;
  readonly response: IncomingMessage;
  /** Drops the connection, as a lost network would. */
  disconnect(): void;
}

/** Opens `url` as an event stream and parses it as it arrives. */
export function openEvents(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      const frames: SseFrame[] = [];
      const waiting: Array<{ match: (f: SseFrame) => boolean; resolve: (f: SseFrame) => void }> = [];
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const frame = parseFrame(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          frames.push(frame);
          for (const w of waiting.filter((x) => x.match(frame))) {
            waiting.splice(waiting.indexOf(w), 1);
            w.resolve(frame);
          }
        }
      });
      const ended = new Promise<void>((done) => {
        response.on('end', done);
        response.on('close', done);
      });
      response.on('error', () => undefined); // a dropped connection: `ended` says so
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        frames,
        events: () => frames.filter((f) => f.data !== undefined && f.event === undefined).map((f) => JSON.parse(f.data!) as SequencedEvent),
        waitFor: (match) => {
          const found = frames.find(match);
          return found ? Promise.resolve(found) : new Promise((r) => waiting.push({ match, resolve: r }));
        },
        ended,
        response,
        disconnect: () => request.destroy(),
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET') reject(error);
    });
  });
}

function parseFrame(block: string): SseFrame {
  const frame: { id?: string; event?: string; data?: string; comment?: string } = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) frame.comment = line.slice(1).trim();
    else {
      const colon = line.indexOf(':');
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id' || field === 'event' || field === 'data') frame[field] = value;
    }
  }
  return frame;
}

/** 1, 2, ..., n. */
export function oneTo(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}
