import type { ServerResponse } from 'node:http';
import net from 'node:net';
import { EMPTY } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { streamSse } from '../../src/adapters/index.js';
import { writeSseHeaders } from '../../src/adapters/sse-headers.js';
import { streamRunEvents } from '../../src/http/stream-run-events.js';
import { eventStreamResponse } from '../../src/protocols/event-stream-response.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

const http = httpServerPerTest();

/** The headers a real client receives from a stream started by `start`. */
async function headersOf(start: (res: ServerResponse) => void): Promise<Record<string, string | null>> {
  const url = await http.serve((_req, res) => start(res));
  const answer = await fetch(url);
  await answer.text();
  const pick = (name: string): string | null => answer.headers.get(name);
  return {
    status: String(answer.status),
    'content-type': pick('content-type'),
    'cache-control': pick('cache-control'),
    connection: pick('connection'),
    'x-accel-buffering': pick('x-accel-buffering'),
  };
}

/** What a browser and the proxies between need of a live event stream (src/adapters/sse-headers.ts says why); `connection` is Node's own. */
const EXPECTED = {
  status: '200',
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

describe('the SSE headers: one writer for every event stream', () => {
  it('streamSse, GET /runs/:id/events and the protocol streams answer with the same headers', async () => {
    const sink = await headersOf((res) => void streamSse(EMPTY, res, { keepAliveMs: 0 }));
    await http.closeServer();
    const runEvents = await headersOf((res) => streamRunEvents(() => EMPTY, 0, res, 0, () => false));
    await http.closeServer();
    const protocol = await headersOf((res) => eventStreamResponse(res, {}, 0).end());
    expect(sink).toEqual(EXPECTED);
    expect(runEvents).toEqual(EXPECTED);
    expect(protocol).toEqual(EXPECTED);
  });

  it('a client that asks to close the connection is answered close, and the connection closes when the stream ends', async () => {
    const url = await http.serve((_req, res) => {
      writeSseHeaders(res);
      res.end('data: {}\n\n');
    });
    http.server!.keepAliveTimeout = 600_000; // a connection kept alive would outlive the test
    const socket = http.track(net.connect(Number(new URL(url).port), '127.0.0.1'));
    socket.write('GET / HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n');
    let answer = '';
    socket.on('data', (piece: Buffer) => (answer += piece.toString('latin1')));
    await new Promise((resolve) => socket.once('close', resolve));
    const head = answer.slice(0, answer.indexOf('\r\n\r\n')).toLowerCase().split('\r\n');
    expect(head).toContain('connection: close');
    expect(head).not.toContain('connection: keep-alive');
    expect(answer.endsWith('data: {}\n\n\r\n0\r\n\r\n')).toBe(true);
  });

  it("a protocol's extra header is added, but cannot replace the stream's own", async () => {
    const url = await http.serve((_req, res) => eventStreamResponse(res, { 'x-vercel-ai-ui-message-stream': 'v1', 'cache-control': 'max-age=60' }, 0).end());
    const answer = await fetch(url);
    await answer.text();
    expect(answer.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(answer.headers.get('cache-control')).toBe('no-store, no-transform');
  });
});
