import type { IncomingMessage, ServerResponse } from 'node:http';
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { answerApproval, fromRun, getRun, getSession, listSessions, startRun } from '../../src/client/index.js';
import { createGate } from '../support/deferred.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

/**
 * The client against a real server that never finishes answering: it sends nothing, or its
 * headers and then a body that trickles in and never ends (below every size cap), or an
 * error answer that never ends. Without the caller's `signal` every call would wait forever;
 * with it each rejects with the signal's reason, and lets its connection go.
 */
const http = httpServerPerTest();

/** A server that answers each request with `answer` and never ends it; says when a request came and when its connection closed. */
async function stallingServer(answer: (res: ServerResponse) => void) {
  const arrived = createGate();
  let open = 0;
  let closed = 0;
  const base = await http.serve((req: IncomingMessage, res: ServerResponse) => {
    open += 1;
    req.socket.once('close', () => (closed += 1));
    req.resume();
    answer(res);
    arrived.open();
  });
  return { base: `${base}/api`, arrived: arrived.promise, allClosed: () => open > 0 && closed === open };
}

const REASON = new Error('the caller gave up');

/** Aborts with {@link REASON} once the server has the request (and wrote what it writes). */
function abortOnArrival(arrived: Promise<void>): AbortSignal {
  const controller = new AbortController();
  void arrived.then(() => setImmediate(() => controller.abort(REASON)));
  return controller.signal;
}

describe('the client against a server that never finishes its answer', () => {
  it.each([
    ['sends no answer at all', (_res: ServerResponse) => undefined],
    ['trickles a JSON body that never ends', (res: ServerResponse) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.write('{"runId":"run_1",');
    }],
    ['trickles an error page that never ends', (res: ServerResponse) => {
      res.writeHead(409, { 'content-type': 'text/plain' });
      res.write('busy...');
    }],
  ])('a server that %s: startRun rejects with the signal\'s reason and the connection is let go', async (_what, answer) => {
    const server = await stallingServer(answer);
    const signal = abortOnArrival(server.arrived);
    await expect(startRun(server.base, { prompt: 'hi' }, { signal })).rejects.toBe(REASON);
    await expect.poll(server.allClosed, { timeout: 10_000 }).toBe(true);
  });

  it('every one-shot call takes the signal: getRun, answerApproval, listSessions, getSession', async () => {
    const server = await stallingServer((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
    });
    const calls = [
      (signal: AbortSignal) => getRun(server.base, 'run_1', { signal }),
      (signal: AbortSignal) => answerApproval(server.base, 'run_1', { approvalId: 'a' }, 'approve', { signal }),
      (signal: AbortSignal) => listSessions(server.base, { signal }),
      (signal: AbortSignal) => getSession(server.base, 's', { signal }),
    ];
    for (const call of calls) await expect(call(abortOnArrival(server.arrived))).rejects.toBe(REASON);
  });

  it('a signal aborted already sends nothing', async () => {
    const server = await stallingServer(() => undefined);
    await expect(startRun(server.base, { prompt: 'hi' }, { signal: AbortSignal.abort(REASON) })).rejects.toBe(REASON);
    expect(server.allClosed()).toBe(false); // no request came
  });

  it('fromRun errors with the reason when its signal aborts while the server says nothing, and lets the connection go', async () => {
    const server = await stallingServer((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': hello\n\n');
    });
    const signal = abortOnArrival(server.arrived);
    await expect(firstValueFrom(fromRun(server.base, 'run_1', { signal, idleTimeoutMs: 0 }))).rejects.toBe(REASON);
    await expect.poll(server.allClosed, { timeout: 10_000 }).toBe(true);
  });
});

describe('a fetch of the caller\'s own that answers without honouring the signal', () => {
  it.each([
    ['a JSON body', 200],
    ['an error page', 409],
  ])('the call rejects with the reason and cancels %s its server still trickles (the socket is let go)', async (_what, status) => {
    const server = await stallingServer((res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.write('{"sessionId":');
    });
    const controller = new AbortController();
    // Drops the signal, as a caller's fetch may; the caller gives up while the answer is on its way.
    const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const response = await globalThis.fetch(url, { ...init, signal: undefined });
      controller.abort(REASON);
      return response;
    };
    await expect(getSession(server.base, 's1', { fetch, signal: controller.signal })).rejects.toBe(REASON);
    await expect.poll(server.allClosed, { timeout: 10_000 }).toBe(true);
  });
});
