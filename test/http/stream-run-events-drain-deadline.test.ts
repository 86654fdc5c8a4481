/**
 * `GET /runs/:id/events` (`streamRunEvents`) once its run has ended: when the last frame goes
 * to `res.end` while the client has stopped reading (its socket full, but not enough for a
 * write to report it), the client gets 30 s to take the rest, then its connection is
 * destroyed. Real sockets; fake `setTimeout` for the deadline only.
 */
import type { ServerResponse } from 'node:http';
import net from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { streamRunEvents } from '../../src/http/stream-run-events.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

const served = httpServerPerTest();
afterEach(() => void vi.useRealTimers());

describe('streamRunEvents: a client that stops reading as its run ends', () => {
  it('destroys the connection 30 s after the last frame, not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const run = new Subject<SequencedEvent>();
    let res!: ServerResponse;
    const url = await served.serve((_req, r) => {
      res = r;
      streamRunEvents(() => run, 0, r, 0, () => false);
    });
    const client = served.track(net.connect(Number(new URL(url).port), '127.0.0.1'));
    client.pause();
    client.on('error', () => undefined);
    client.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
    while (res === undefined) await nextTurn();
    // 8 KiB events, one a turn, until the kernel takes no more: the socket then holds less
    // than its 16 KiB high-water mark, so no write has reported it full
    const text = 'x'.repeat(8 * 1024);
    let seq = 0;
    while (res.socket!.writableLength === 0) {
      seq += 1;
      run.next({ runId: 'r', seq, event: { type: 'ReasonDelta', runId: 'r', agentName: 'main', step: 1, kind: 'text', text } });
      await nextTurn();
      await nextTurn();
    }
    const socket = res.socket!;
    run.complete();
    await nextTurn();
    expect(res.writableEnded).toBe(true);
    expect(res.writableFinished).toBe(false);
    vi.advanceTimersByTime(29_999);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(socket.destroyed).toBe(true);
  });
});
