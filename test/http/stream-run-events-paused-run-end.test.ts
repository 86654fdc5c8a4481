/**
 * `GET /runs/:id/events` (`streamRunEvents`) with a client already paused (the stream let go
 * of the run for a full socket and waits for `'drain'`) when its run ends: the stream learns
 * of the end through `runEnded` and gives the client 30 s to drain, then destroys its
 * connection; while the run goes on, a client that does not read is never cut. Real
 * sockets; fake `setTimeout` for the checks and the deadline only.
 */
import type { ServerResponse } from 'node:http';
import net from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { filter, ReplaySubject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { streamRunEvents } from '../../src/http/stream-run-events.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

const served = httpServerPerTest();
afterEach(() => void vi.useRealTimers());

const text = 'x'.repeat(64 * 1024);

/**
 * A run kept in a log (a `ReplaySubject`, read from any seq), streamed to a raw client that
 * paused after sending its request; events are added until the stream lets go of the run.
 */
async function pausedClient() {
  const log = new ReplaySubject<SequencedEvent>();
  const state = { ended: false };
  let res!: ServerResponse;
  const url = await served.serve((_req, r) => {
    res = r;
    streamRunEvents((after) => log.pipe(filter((e) => e.seq > after)), 0, r, 0, () => state.ended);
  });
  const client = served.track(net.connect(Number(new URL(url).port), '127.0.0.1'));
  client.pause();
  client.on('error', () => undefined);
  client.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
  while (res === undefined) await nextTurn();
  let seq = 0;
  while (log.observed) {
    seq += 1;
    log.next({ runId: 'r', seq, event: { type: 'ReasonDelta', runId: 'r', agentName: 'main', step: 1, kind: 'text', text } });
    await nextTurn();
  }
  const end = (): void => {
    log.complete();
    state.ended = true;
  };
  return { client, res, socket: res.socket!, end, events: () => seq };
}

describe('streamRunEvents: a client already paused when its run ends', () => {
  it('destroys the connection about 30 s after the run ends, not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { socket, end } = await pausedClient();
    vi.advanceTimersByTime(10 * 60_000); // a live run: never cut for not reading
    expect(socket.destroyed).toBe(false);
    end();
    vi.advanceTimersByTime(29_999);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(1_001);
    expect(socket.destroyed).toBe(true);
  });

  it('a paused client that reads again after the run ended gets every event and a clean end, and no timer is left', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { client, res, socket, end, events } = await pausedClient();
    end();
    vi.advanceTimersByTime(20_000);
    let body = '';
    client.setEncoding('utf8');
    client.on('data', (chunk: string) => (body += chunk));
    client.resume();
    while (!res.writableFinished) await nextTurn();
    while (!body.includes('event: end')) await nextTurn();
    expect(socket.destroyed).toBe(false); // written out, not cut
    expect(body).toContain(`id: ${events()}\n`);
    expect(body).toMatch(new RegExp(`event: end\ndata: \\{\\}\nid: ${events() + 1}\n\n(\r\n0\r\n\r\n)?$`));
    expect(vi.getTimerCount()).toBe(0);
  });
});
