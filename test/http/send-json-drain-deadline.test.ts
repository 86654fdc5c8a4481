/**
 * A large JSON answer (a long session, an archive) to a client that sent its request and
 * stopped reading: once handed to `res.end`, the client has 30 s to take it, then its
 * connection is destroyed; a small answer takes no timer. Real sockets; fake `setTimeout`.
 */
import type { ServerResponse } from 'node:http';
import net from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sendJson } from '../../src/http/http-answers.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

const served = httpServerPerTest();
afterEach(() => void vi.useRealTimers());

/** A client that sends one request and never reads; resolves once the answer is handed over. */
async function answerUnread(body: unknown) {
  let res!: ServerResponse;
  const url = await served.serve((_req, r) => {
    res = r;
    sendJson(r, 200, body);
  });
  const client = served.track(net.connect(Number(new URL(url).port), '127.0.0.1'));
  client.pause();
  client.on('error', () => undefined);
  client.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
  while (res === undefined || !res.writableEnded) await nextTurn();
  return { res, socket: res.socket! };
}

describe('sendJson: an answer nobody reads', () => {
  it('a large one: the connection is destroyed 30 s after it was handed over, not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { res, socket } = await answerUnread({ messages: 'x'.repeat(32 * 1024 * 1024) });
    expect(res.writableFinished).toBe(false);
    vi.advanceTimersByTime(29_999);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(socket.destroyed).toBe(true);
  });

  it('a small one takes no timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await answerUnread({ runId: 'run_1' });
    expect(vi.getTimerCount()).toBe(0);
  });
});
