/**
 * An A2A JSON answer (`writeRpcJson`, and `writeRpcAnswer` with an envelope) to a client that
 * sent its request and stopped reading: the answer is handed to `res.end`, and the client has
 * 30 s to take it, then its connection is destroyed. Real sockets; fake `setTimeout` for the
 * deadline only.
 */
import type { ServerResponse } from 'node:http';
import net from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeRpcAnswer } from '../../../src/protocols/a2a/write-rpc-answer.js';
import { httpServerPerTest } from '../../support/http-server-per-test.js';

const served = httpServerPerTest();
afterEach(() => void vi.useRealTimers());

/** A client that sends one request and never reads; resolves with the server's response once the answer is handed over. */
async function answerUnread(envelope: object) {
  let res!: ServerResponse;
  const url = await served.serve((_req, r) => {
    res = r;
    void writeRpcAnswer(r, envelope, 0, (error) => ({ error: String(error) }));
  });
  const client = served.track(net.connect(Number(new URL(url).port), '127.0.0.1'));
  client.pause();
  client.on('error', () => undefined);
  client.write('POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}');
  while (res === undefined || !res.writableEnded) await nextTurn();
  return { client, res, socket: res.socket! };
}

describe('writeRpcAnswer: a JSON answer to a client that does not read', () => {
  it('destroys the connection 30 s after the answer is handed over, not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // larger than both sockets' buffers: the rest waits in the response
    const { res, socket } = await answerUnread({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(32 * 1024 * 1024) } });
    expect(res.writableFinished).toBe(false);
    vi.advanceTimersByTime(29_999);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(socket.destroyed).toBe(true);
  });

  it('a client that reads takes the whole answer, and no timer is left', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { client, res, socket } = await answerUnread({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(4 * 1024 * 1024) } });
    let bytes = 0;
    client.on('data', (chunk: Buffer) => (bytes += chunk.length));
    client.resume();
    while (bytes <= 4 * 1024 * 1024 || !res.writableFinished) await nextTurn();
    expect(socket.destroyed).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});
