/**
 * `streamSse` against clients that do not keep up: one that never reads (the server must not
 * buffer without bound, and must stop the run), one that pauses and catches up (nothing is
 * lost, nothing is written past a full socket), and events that cannot be serialised.
 * Real `http` servers and real sockets throughout.
 */
import type { ServerResponse } from 'node:http';
import { concat, finalize, from, NEVER, Observable, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { streamSse, type SseOptions } from '../../src/adapters/index.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';
import { FixtureRun } from './fixtures.js';
import { neverReadingClient } from './never-reading-client.js';
import { connect } from './sse-client.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const served = httpServerPerTest();

/** Serves `streamSse(events$, res)` and hands each response to `onResponse`. */
async function serveSse(events$: () => Observable<AgentEvent>, options: SseOptions, onResponse: (res: ServerResponse) => void = () => undefined) {
  const url = await served.serve((req, res) => {
    onResponse(res);
    streamSse(events$(), res, { ...options, request: req });
  });
  return Number(new URL(url).port);
}

/**
 * A run that emits `frameBytes`-sized deltas, one per turn of the event loop, up to `budget`
 * bytes in all; it records the response's buffered bytes before each emission and whether
 * it was unsubscribed (stopped) or ran out of budget (completed).
 */
function floodingRun(budget: number, frameBytes: number, res: () => ServerResponse | undefined) {
  const probe = { emittedBytes: 0, maxWritableLength: 0, stopped: false, completed: false };
  const main = new FixtureRun('r', 'main');
  const text = 'x'.repeat(frameBytes);
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const events$ = new Observable<AgentEvent>((subscriber) => {
    const tick = (): void => {
      if (subscriber.closed) return;
      probe.maxWritableLength = Math.max(probe.maxWritableLength, res()?.writableLength ?? 0);
      if (probe.emittedBytes >= budget) {
        probe.completed = true;
        subscriber.complete();
        return;
      }
      probe.emittedBytes += frameBytes;
      subscriber.next({ type: 'ReasonDelta', runId: main.runId, agentName: main.agentName, step: 1, kind: 'text', text });
      setImmediate(tick);
    };
    setImmediate(tick);
  }).pipe(
    finalize(() => {
      probe.stopped = !probe.completed;
      finished();
    }),
  );
  return { events$, probe, done };
}

describe('streamSse: a client that does not read', () => {
  it('keeps the server’s buffer bounded, then cuts the client and stops the run', async () => {
    let res: ServerResponse | undefined;
    const run = floodingRun(128 * MiB, 64 * KiB, () => res);
    const port = await serveSse(() => run.events$, { keepAliveMs: 0, maxBufferedBytes: MiB }, (r) => (res = r));
    const client = neverReadingClient(served, port);
    await run.done;
    expect(run.probe).toMatchObject({ stopped: true, completed: false });
    // the kernel's socket buffers take some megabytes; after that the server holds at most
    // its high-water mark plus one frame, and queues at most maxBufferedBytes of its own
    expect(run.probe.maxWritableLength).toBeLessThan(MiB);
    expect(run.probe.emittedBytes).toBeLessThan(64 * MiB);
    expect(res?.destroyed).toBe(true);
    expect(client.destroyed).toBe(false); // the server cut it; the client did nothing
  });

  it('is bounded by default too (4 MiB)', async () => {
    let res: ServerResponse | undefined;
    const run = floodingRun(256 * MiB, 64 * KiB, () => res);
    const port = await serveSse(() => run.events$, { keepAliveMs: 0 }, (r) => (res = r));
    neverReadingClient(served, port);
    await run.done;
    expect(run.probe.stopped).toBe(true);
    expect(run.probe.maxWritableLength).toBeLessThan(MiB);
    expect(run.probe.emittedBytes).toBeLessThan(128 * MiB);
  });

  it('refuses a buffer bound it cannot honour', () => {
    const res = {} as ServerResponse;
    for (const maxBufferedBytes of [-1, 1.5, Number.NaN]) {
      expect(() => streamSse(from([]), res, { maxBufferedBytes })).toThrow(/^maxBufferedBytes must be a whole number of bytes, at least 0, got /);
    }
  });
});

describe('streamSse: a client that pauses, then catches up', () => {
  it('loses nothing, keeps the order, and never writes to a full socket (keep-alives included)', async () => {
    const main = new FixtureRun('r', 'main');
    const events = Array.from({ length: 300 }, (_, i) => main.reason(1, `${i} ${'y'.repeat(16 * KiB)}`)[1]!);
    let writesWhileFull = 0;
    const port = await serveSse(() => from(events), { keepAliveMs: 5, maxBufferedBytes: 16 * MiB }, (res) => {
      const write = res.write.bind(res) as (chunk: string) => boolean;
      res.write = ((chunk: string) => {
        if (res.writableNeedDrain) writesWhileFull += 1;
        return write(chunk);
      }) as typeof res.write;
    });
    const client = await connect(`http://127.0.0.1:${port}/`, { pauseMs: 300 });
    await client.ended;
    const data = client.messages.filter((m) => m.event === undefined && m.comment === undefined);
    expect(data.map((m) => JSON.parse(m.data ?? '') as AgentEvent)).toEqual(events);
    expect(data.map((m) => m.id)).toEqual(events.map((_, i) => String(i + 1)));
    expect(client.messages.at(-1)).toEqual({ event: 'end', data: '{}' });
    expect(writesWhileFull).toBe(0);
  });
});

describe('streamSse: unsubscribed while messages wait', () => {
  it('writes what waits, then ends the response without an end message', async () => {
    const main = new FixtureRun('r', 'main');
    const events = Array.from({ length: 300 }, (_, i) => main.reason(1, `${i} ${'z'.repeat(16 * KiB)}`)[1]!);
    let queuedAtUnsubscribe = false;
    const url = await served.serve((_req, res) => {
      const subscription = streamSse(concat(from(events), NEVER), res, { keepAliveMs: 0 });
      queuedAtUnsubscribe = res.writableNeedDrain;
      subscription.unsubscribe();
    });
    const client = await connect(url, { pauseMs: 200 });
    await client.ended;
    expect(queuedAtUnsubscribe).toBe(true);
    // every event had been emitted synchronously, so each one was written or queued, in order
    expect(client.messages.map((m) => JSON.parse(m.data ?? '') as AgentEvent)).toEqual(events);
  });
});

describe('streamSse: events that cannot be sent', () => {
  it('answers an event that cannot be serialised with event: error and stops the run', async () => {
    const main = new FixtureRun('r', 'main');
    const push = new Subject<AgentEvent>();
    let stopped = false;
    const events$ = push.pipe(finalize(() => (stopped = true)));
    const port = await serveSse(() => events$, { keepAliveMs: 0 });
    const client = await connect(`http://127.0.0.1:${port}/`);
    push.next(main.start('hi'));
    await client.waitFor((m) => m.data !== undefined);
    const cyclic: Record<string, unknown> = { type: 'ToolCallStart', runId: 'r', agentName: 'main', step: 1, callId: 'c', toolName: 't' };
    cyclic.args = cyclic;
    push.next(cyclic as unknown as AgentEvent);
    await client.ended;
    expect(stopped).toBe(true);
    expect(push.observed).toBe(false);
    const last = client.messages.at(-1);
    expect(last?.event).toBe('error');
    expect(JSON.parse(last?.data ?? '')).toMatchObject({ name: 'TypeError', message: expect.stringContaining('circular') });
  });
});
