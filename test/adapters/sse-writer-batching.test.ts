/**
 * `streamSse` (and so `sseWriter`, which the protocol streams share) writes the events of one
 * turn of the event loop in one `res.write`: counted on the real `ServerResponse` of a real
 * `http` server, read by a real socket. Batching must keep the order, the buffer bound (a
 * client that does not read is still cut) and the end (once, after every event).
 */
import type { ServerResponse } from 'node:http';
import { from, Observable, Subject, tap } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { streamSse, type SseOptions } from '../../src/adapters/index.js';
import { httpServerPerTest, type ResponseCounts } from '../support/http-server-per-test.js';
import { withFrozenFrameClock } from '../support/frozen-frame-clock.js';
import { neverReadingClient } from './never-reading-client.js';
import { connect } from './sse-client.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const served = httpServerPerTest();

/** Serves `streamSse(events$(), res)`, counting `res.write` and `res.end` calls. */
function serveCounted(events$: () => Observable<AgentEvent>, options: SseOptions = {}): Promise<{ url: string; counts: ResponseCounts }> {
  return served.serveCounted((req, res) => streamSse(events$(), res, { keepAliveMs: 0, ...options, request: req }));
}

/** `count` text deltas of the main agent, the i-th carrying `text(i)`. */
const deltas = (count: number, text: (i: number) => string): AgentEvent[] =>
  Array.from({ length: count }, (_, i) => ({ type: 'ReasonDelta', runId: 'r', agentName: 'main', step: 1, kind: 'text', text: text(i) }));

describe('streamSse: events ready in the same turn', () => {
  it('writes 10,000 synchronous events in order in far fewer writes', async () => {
    const events = deltas(10_000, (i) => `delta ${i}`);
    const { url, counts } = await serveCounted(() => from(events));
    const client = await connect(url);
    await client.ended;
    const data = client.messages.filter((m) => m.data !== undefined && m.event === undefined);
    expect(data.map((m) => JSON.parse(m.data!) as AgentEvent)).toEqual(events);
    expect(data.map((m) => m.id)).toEqual(events.map((_, i) => String(i + 1)));
    expect(client.messages.at(-1)).toEqual({ event: 'end', data: '{}' });
    // one write a socket buffer (16 KiB, about a hundred of these events), not one an event
    expect(counts.writes).toBeLessThan(events.length / 20);
  });

  it('writes the events of one turn in one write, and a lone event without waiting for more', async () => {
    const push = new Subject<AgentEvent>();
    const events = deltas(51, (i) => `delta ${i}`);
    const { url, counts } = await serveCounted(() => push);
    const client = await connect(url);
    const before = counts.writes;
    await withFrozenFrameClock(async () => {
      setImmediate(() => events.slice(0, 50).forEach((e) => push.next(e)));
      await client.waitFor((m) => m.id === '50');
      expect(counts.writes - before).toBe(1);
      // nothing follows it: it still goes out, in its own write
      push.next(events[50]!);
      await client.waitFor((m) => m.id === '51');
      expect(counts.writes - before).toBe(2);
    });
    push.complete();
    await client.ended;
  });

  it('still cuts a client that does not read at the bound, however many events came in one turn', async () => {
    const events = deltas(4096, (i) => `${i} ${'x'.repeat(16 * KiB)}`); // 64 MiB at once
    let maxWritableLength = 0;
    let res: ServerResponse | undefined;
    const { url, counts } = await serveCounted(
      () =>
        from(events).pipe(
          tap(() => {
            maxWritableLength = Math.max(maxWritableLength, res?.writableLength ?? 0);
          }),
        ),
      { maxBufferedBytes: MiB },
    );
    const closed = new Promise<void>((resolve) => served.server!.once('request', (_req, r: ServerResponse) => ((res = r), r.once('close', resolve))));
    neverReadingClient(served, Number(new URL(url).port));
    await closed;
    expect(counts.res?.destroyed).toBe(true);
    // (a synchronous source cannot be stopped before subscribe() returns: what counts is that
    // its events were neither written nor kept) A batch is written once it holds a socket
    // buffer, so the backlog meets the bound, not one 64 MiB write.
    expect(counts.chars).toBeLessThan(2 * MiB);
    expect(maxWritableLength).toBeLessThan(2 * MiB);
  });

  it('ends once, after every event of the turn it ended in; an error likewise', async () => {
    const events = deltas(100, (i) => `delta ${i}`);
    for (const ending of ['complete', 'error'] as const) {
      const push = new Subject<AgentEvent>();
      const { url, counts } = await serveCounted(() => push);
      const client = await connect(url);
      setImmediate(() => {
        for (const event of events) push.next(event);
        if (ending === 'complete') push.complete();
        else push.error(new Error('the model went away'));
      });
      await client.ended;
      expect(client.messages.slice(0, -1).map((m) => JSON.parse(m.data!) as AgentEvent)).toEqual(events);
      const last = client.messages.at(-1)!;
      expect(last.event).toBe(ending === 'complete' ? 'end' : 'error');
      expect(counts.ends).toBe(1);
      // the events and the end go out together: nothing was written after the end
      expect(counts.res?.writableFinished).toBe(true);
      await served.closeServer();
    }
  });
});
