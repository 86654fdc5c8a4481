/**
 * A server that plays the runs routes from a script, behind the real built page: what a
 * model (or a compromised server) can make a page show, without an engine. `GET /` is the
 * page with its own CSP, as `serve` answers it; `GET /api/runs/run_1/events` is the scripted
 * events, numbered from 1, then `after` (raw text of the stream, e.g. an `event: error`), then
 * the stream stays open (the run still going); the side list is empty, and conversation
 * `ses_1` holds `messages` and no run (open `${origin}/?session=ses_1`). Open `${origin}/?run=run_1`.
 *
 * @module
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentEvent } from '../../src/events/index.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { loadDemoPage } from '../../src/web/demo-page.js';
import { PAGE_HEADERS } from '../../src/web/serve-headers.js';

/** The run the script plays. */
export const SCRIPTED_RUN = 'run_1';

/** A running scripted server. */
export interface ScriptedRunServer {
  /** e.g. `http://127.0.0.1:4242`. */
  readonly origin: string;
  close(): Promise<void>;
}

/** Serves the page and `events` (then `after`) as run `run_1`'s stream, and `messages` as conversation `ses_1`. */
export async function startScriptedRunServer(events: readonly AgentEvent[], after = '', messages: readonly ChatMessage[] = []): Promise<ScriptedRunServer> {
  const page = await loadDemoPage();
  const streams = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/') {
      res.writeHead(200, { ...PAGE_HEADERS, 'content-security-policy': page.csp }).end(page.html);
    } else if (path === `/api/runs/${SCRIPTED_RUN}/events`) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(events.map((event, i) => `id: ${i + 1}\ndata: ${JSON.stringify({ runId: SCRIPTED_RUN, seq: i + 1, event })}\n\n`).join('') + after);
      streams.add(res); // left open: the run goes on
      res.on('close', () => streams.delete(res));
    } else if (path === '/api/sessions/ses_1') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sessionId: 'ses_1', title: '', messages, runs: [] }));
    } else if (path === '/api/sessions') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sessions: [] }));
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `no ${path}` }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of streams) res.destroy();
        server.close(() => resolve());
      }),
  };
}
