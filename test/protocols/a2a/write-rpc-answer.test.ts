import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as turn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { writeRpcAnswer } from '../../../src/protocols/a2a/write-rpc-answer.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

const MiB = 1024 * 1024;

/** A stream of `count` envelopes of about 1 MiB each, one per event-loop turn; counts what it yielded and whether it was closed. */
function bigEnvelopes(count: number) {
  const seen = { yielded: 0, closed: false };
  async function* stream(): AsyncGenerator<object, void, undefined> {
    try {
      for (let i = 0; i < count; i++) {
        await turn();
        seen.yielded += 1;
        yield { jsonrpc: '2.0', id: 1, result: { n: i, text: 'x'.repeat(MiB) } };
      }
    } finally {
      seen.closed = true;
    }
  }
  return { seen, stream: stream() };
}

/** Serves one stream with writeRpcAnswer; resolves with the URL, and the server side's response and end of writing. */
async function serve(stream: AsyncGenerator<object, void, undefined>) {
  let written!: Promise<void>;
  let response!: ServerResponse;
  server = createServer((_req, res) => {
    response = res;
    written = writeRpcAnswer(res, stream, 0, (error) => ({ error: String(error) }));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, done: () => written, response: () => response };
}

function open(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => request(url, { method: 'POST' }, resolve).on('error', reject).end('{}'));
}

describe('writeRpcAnswer: backpressure of an A2A stream', () => {
  it('a client that never reads is cut at the bound: the stream is closed after a bounded number of envelopes, not written on into memory', async () => {
    const { seen, stream } = bigEnvelopes(200);
    const served = await serve(stream);
    const answer = await open(served.url);
    answer.pause(); // never reads again
    answer.on('error', () => {});
    await served.done();
    expect(seen.closed).toBe(true);
    // 8 MiB of backlog, plus what the two sockets' buffers hold: far fewer than the 200 offered.
    expect(seen.yielded).toBeLessThan(64);
    expect(served.response().destroyed).toBe(true);
    expect(served.response().writableFinished).toBe(false);
  });

  it('a client that reads gets every envelope in order, as SSE data lines, and the response ends', async () => {
    const { seen, stream } = bigEnvelopes(12);
    const served = await serve(stream);
    const answer = await open(served.url);
    expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    let body = '';
    answer.setEncoding('utf8');
    for await (const chunk of answer) body += chunk as string;
    await served.done();
    const envelopes = body.split('\n\n').filter((frame) => frame.startsWith('data: ')).map((frame) => JSON.parse(frame.slice(6)) as { result: { n: number } });
    expect(envelopes.map((e) => e.result.n)).toEqual([...Array(12).keys()]);
    expect(seen).toEqual({ yielded: 12, closed: true });
  });
});
