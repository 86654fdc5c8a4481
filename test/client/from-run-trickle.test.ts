/**
 * The idle watchdog of `fromRun` counts whole frames, not bytes: a hostile server that
 * trickles one byte at a time, never finishing a message, kept a follow open until the
 * 10 MiB message bound (which at that pace is never). Only a whole message or a comment line
 * (the server's `: keep-alive`) restarts it. In fake time: the hours below pass in no wall time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromRun, RunConnectionError } from '../../src/client/index.js';
import { frame, RUN, runStart, scriptedFetch } from './fake-events-server.js';

const encoder = new TextEncoder();

/** A body of `pieces`, one every `everyMs` (fake timers), then `tail` over and over, one piece per interval. */
function paced(pieces: readonly string[], tail: readonly string[], everyMs: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent > 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
      const piece = sent < pieces.length ? pieces[sent]! : tail[(sent - pieces.length) % tail.length]!;
      sent += 1;
      controller.enqueue(encoder.encode(piece));
    },
  });
}

/** How the follow ended, and what it delivered. */
function outcome(events$: ReturnType<typeof fromRun>): Promise<{ seen: string[]; error?: unknown }> {
  const seen: string[] = [];
  return new Promise((resolve) =>
    events$.subscribe({ next: (e) => seen.push(e.event.type), error: (error: unknown) => resolve({ seen, error }), complete: () => resolve({ seen }) }),
  );
}

afterEach(() => void vi.useRealTimers());

describe('fromRun: a server that trickles a message byte by byte (fake time)', () => {
  it('is dropped idleTimeoutMs after its last whole frame, and given up on with the idle error naming the timeout', async () => {
    vi.useFakeTimers({ now: 0 });
    // One byte a second of a message that never ends: each byte well inside the 30 s timeout.
    const bytes = [...`data: {"runId":"${RUN}","seq":2,"event":{"type":"RunEnd","text":"${'x'.repeat(10_000)}`];
    const server = scriptedFetch(() => paced([frame(1, runStart)], bytes, 1_000));
    const ended = outcome(fromRun('http://x', RUN, { fetch: server.fetch, idleTimeoutMs: 30_000, retryDelayMs: 0, maxRetries: 1 }));
    await vi.advanceTimersByTimeAsync(29_000);
    expect(server.urls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_000); // 30 s after the RunStart: dropped, connected again
    expect(server.urls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(31_000);
    const { seen, error } = await ended;
    expect(seen).toEqual(['RunStart']);
    expect(RunConnectionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      attempts: 2,
      message: expect.stringContaining('the connection brought nothing for 30000 ms (no whole event, no keep-alive comment: idleTimeoutMs)'),
    });
    await vi.runAllTimersAsync();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a trickled comment that never ends its line does not count either', async () => {
    vi.useFakeTimers({ now: 0 });
    const server = scriptedFetch(() => paced([frame(1, runStart), ':'], ['k'], 1_000));
    const errors: unknown[] = [];
    fromRun('http://x', RUN, { fetch: server.fetch, idleTimeoutMs: 30_000, retryDelayMs: 0, maxRetries: 0 }).subscribe({ error: (e: unknown) => void errors.push(e) });
    await vi.advanceTimersByTimeAsync(31_000);
    expect(errors).toEqual([expect.objectContaining({ name: 'RunConnectionError', message: expect.stringContaining('brought nothing for 30000 ms') })]);
    expect(server.urls).toHaveLength(1);
  });
});

describe('fromRun: whole frames keep a follow (fake time)', () => {
  it('keep-alive comments every 15 s, each split across two chunks, keep it for an hour on one connection', async () => {
    vi.useFakeTimers({ now: 0 });
    // Each half 7.5 s apart: the whole comment, not its first byte, restarts the watchdog.
    const server = scriptedFetch(() => paced([frame(1, runStart)], [': keep-', 'alive\n\n'], 7_500));
    const errors: unknown[] = [];
    const sub = fromRun('http://x', RUN, { fetch: server.fetch, idleTimeoutMs: 20_000 }).subscribe({ error: (e: unknown) => void errors.push(e) });
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(errors).toEqual([]);
    expect(sub.closed).toBe(false);
    expect(server.urls).toHaveLength(1);
    sub.unsubscribe();
  });

  it('events that each take several chunks to arrive keep it, and each is delivered whole', async () => {
    vi.useFakeTimers({ now: 0 });
    const halves = (seq: number): string[] => {
      const text = frame(seq, { type: 'ReasonDelta', runId: RUN, agentName: 'main', step: 1, kind: 'text', text: `part ${seq}` });
      return [text.slice(0, 20), text.slice(20)];
    };
    const pieces = [frame(1, runStart), ...Array.from({ length: 40 }, (_, i) => halves(i + 2)).flat()];
    const server = scriptedFetch(() => paced(pieces, [': keep-alive\n\n'], 7_500));
    const seen: string[] = [];
    const errors: unknown[] = [];
    const sub = fromRun('http://x', RUN, { fetch: server.fetch, idleTimeoutMs: 20_000 }).subscribe({ next: (e) => void seen.push(e.event.type), error: (e: unknown) => void errors.push(e) });
    await vi.advanceTimersByTimeAsync(81 * 7_500);
    expect(errors).toEqual([]);
    expect(seen).toEqual(['RunStart', ...Array<string>(40).fill('ReasonDelta')]);
    expect(server.urls).toHaveLength(1);
    sub.unsubscribe();
  });
});
