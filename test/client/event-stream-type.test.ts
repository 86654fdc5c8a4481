/**
 * `fromRun` against a `200` that is no event stream: a dev server (or a proxy) answering its
 * HTML page for every path, as a `baseUrl` that misses the runs routes meets. That is a wrong
 * address, said at once, as `startRun` says of a `201` that is not JSON; not a lost connection
 * tried seven times over some 16 s and reported as "closed the stream before the run ended".
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { fromRun, RunRequestError } from '../../src/client/index.js';
import { listen } from '../http/http-kit.js';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A dev server: its page, `200 text/html`, for every path; it counts the requests. */
async function devServer(): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  server = http.createServer((_req, res) => {
    requests += 1;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html><body><div id="app"></div></body></html>\n');
  });
  return { url: await listen(server), requests: () => requests };
}

describe('fromRun: a 200 answer that is not text/event-stream', () => {
  it('fails at once with a RunRequestError naming the type and asking about the base URL; no retry', async () => {
    const dev = await devServer();
    const error = await new Promise<unknown>((resolve) =>
      fromRun(dev.url, 'run_1', { retryDelayMs: 1 }).subscribe({ next: () => resolve(new Error('an event')), error: resolve, complete: () => resolve(new Error('completed')) }),
    );
    expect(dev.requests()).toBe(1);
    expect(RunRequestError.isInstance(error)).toBe(true);
    const { status, message } = error as RunRequestError;
    expect(status).toBe(200);
    expect(message).toContain(`GET ${dev.url}/runs/run_1/events?after=0 answered 200`);
    expect(message).toContain('"text/html; charset=utf-8", not an event stream (text/event-stream)');
    expect(message).toContain('is the base URL the runs routes of a runsHandler');
  });
});
