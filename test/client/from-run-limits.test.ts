/**
 * What a hostile or dead server can cost a client: a message that never ends is refused at
 * `maxMessageLength`, a connection that goes silent is dropped after `idleTimeoutMs` (in
 * fake time) and made again, and an error answer (or a JSON answer) is read only so far.
 */
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromRun, getRun, RunConnectionError, RunRequestError, startRun } from '../../src/client/index.js';
import { MAX_REPLY_CHARS } from '../../src/model/reply-limit.js';
import { END, endless, frame, RUN, runEnd, runStart, scriptedFetch, silentAfter } from './fake-events-server.js';

const MiB = 1024 * 1024;

/** How `events$` ended, and what it delivered. */
function outcome(events$: ReturnType<typeof fromRun>): Promise<{ seen: string[]; error?: unknown }> {
  const seen: string[] = [];
  return new Promise((resolve) =>
    events$.subscribe({ next: (e) => seen.push(e.event.type), error: (error: unknown) => resolve({ seen, error }), complete: () => resolve({ seen }) }),
  );
}

describe('fromRun: a message that never ends', () => {
  it('a line without an end is refused at maxMessageLength with a RunStreamError (MessageTooLarge), reading little past it', async () => {
    const stream = endless(frame(1, runStart) + 'data: ', 'x'.repeat(1024));
    const server = scriptedFetch(stream.body);
    const { seen, error } = await outcome(fromRun('http://x', RUN, { fetch: server.fetch, maxMessageLength: 64 * 1024 }));
    expect(seen).toEqual(['RunStart']);
    expect(error).toMatchObject({ name: 'RunStreamError', serverName: 'MessageTooLarge', message: expect.stringContaining('longer than 65536 characters (maxMessageLength)') });
    expect(stream.sent()).toBeLessThan(70 * 1024);
    expect(server.cancelled()).toBe(1);
    expect(server.urls).toHaveLength(1); // final: no retry
  });

  it('endless `data:` lines of one message (no blank line) are refused the same way', async () => {
    const stream = endless(frame(1, runStart), `data: ${'y'.repeat(1018)}\n`);
    const { error } = await outcome(fromRun('http://x', RUN, { fetch: scriptedFetch(stream.body).fetch, maxMessageLength: 64 * 1024 }));
    expect(error).toMatchObject({ serverName: 'MessageTooLarge' });
    expect(stream.sent()).toBeLessThan(70 * 1024);
  });

  it('by default a message may hold the RunEnd of the longest answer however escaped (7 x MAX_REPLY_CHARS), not more', async () => {
    const bound = MAX_REPLY_CHARS * 7;
    const stream = endless(frame(1, runStart) + 'data: ', 'x'.repeat(64 * 1024));
    const { error } = await outcome(fromRun('http://x', RUN, { fetch: scriptedFetch(stream.body).fetch }));
    expect(error).toMatchObject({ serverName: 'MessageTooLarge', message: expect.stringContaining(`longer than ${bound} characters`) });
    expect(stream.sent()).toBeGreaterThan(bound);
    expect(stream.sent()).toBeLessThan(bound + 256 * 1024);
  });
});

describe('fromRun: a connection that goes silent (fake time)', () => {
  afterEach(() => void vi.useRealTimers());

  it('is dropped after idleTimeoutMs of nothing and made again after the last event, which ends the run', async () => {
    vi.useFakeTimers();
    const server = scriptedFetch((n) => (n === 0 ? silentAfter(frame(1, runStart)) : frame(2, runEnd) + END));
    const ended = outcome(fromRun('http://x', RUN, { fetch: server.fetch, idleTimeoutMs: 30_000, retryDelayMs: 0 }));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(server.urls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1); // dropped now: the reconnection reads the rest
    await vi.runAllTimersAsync();
    expect(await ended).toEqual({ seen: ['RunStart', 'RunEnd'] });
    expect(server.urls.map((u) => u.slice(-7))).toEqual(['after=0', 'after=1']);
    expect(server.cancelled()).toBeGreaterThanOrEqual(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keep-alive comments keep it: no reconnection while they come', async () => {
    vi.useFakeTimers();
    const encoder = new TextEncoder();
    const KEEP_ALIVE_MS = 15_000; // the server's interval (runsHandler's keepAliveMs default)
    let keepAlives = 0;
    const keptAlive = (): ReadableStream<Uint8Array> => {
      let first = true;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          // A fake timer: the ten minutes below pass in no wall time.
          if (!first) await new Promise((resolve) => setTimeout(resolve, KEEP_ALIVE_MS));
          controller.enqueue(encoder.encode(first ? frame(1, runStart) : ': keep-alive\n\n'));
          if (!first) keepAlives++;
          first = false;
        },
      });
    };
    const server = scriptedFetch(keptAlive);
    const errors: unknown[] = [];
    const sub = fromRun('http://x', RUN, { fetch: server.fetch }).subscribe({ error: (e: unknown) => void errors.push(e) });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(server.urls).toHaveLength(1);
    // Kept, not given up: an error at the first comment would also leave one connection made.
    expect(errors).toEqual([]);
    expect(sub.closed).toBe(false);
    // ...and read all along: forty comments in ten minutes, one every interval.
    expect(keepAlives).toBeGreaterThanOrEqual((10 * 60_000) / KEEP_ALIVE_MS - 1);
    sub.unsubscribe();
  });

  it('the default waits three keep-alive intervals (45 s), and silent connections count against maxRetries', async () => {
    vi.useFakeTimers();
    const server = scriptedFetch(() => silentAfter(''));
    const ended = outcome(fromRun('http://x', RUN, { fetch: server.fetch, maxRetries: 2, retryDelayMs: 1000 }));
    await vi.advanceTimersByTimeAsync(44_999);
    expect(server.urls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1 + 1000 + 45_000 + 2000 + 45_000);
    const { error } = await ended;
    expect(RunConnectionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ attempts: 3, message: expect.stringContaining('the last with: the connection brought nothing for 45000 ms') });
    expect(server.urls).toHaveLength(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('idleTimeoutMs 0 waits forever', async () => {
    vi.useFakeTimers();
    const server = scriptedFetch(() => silentAfter(frame(1, runStart)));
    const sub = fromRun('http://x', RUN, { fetch: server.fetch, idleTimeoutMs: 0 }).subscribe({ error: () => undefined });
    await vi.advanceTimersByTimeAsync(24 * 3600_000);
    expect(server.urls).toHaveLength(1);
    sub.unsubscribe();
  });

  it('rejects bad options at once', () => {
    expect(() => fromRun('/api', RUN, { idleTimeoutMs: -1 })).toThrow('fromRun: idleTimeoutMs must be a whole number, at least 0, got -1');
    expect(() => fromRun('/api', RUN, { maxMessageLength: 0 })).toThrow('fromRun: maxMessageLength must be a whole number, at least 1, got 0');
  });
});

describe('answers read only so far', () => {
  it('a retried 503 whose body never ends: 4 KiB read of each, then a RunConnectionError after maxRetries', async () => {
    const stream = endless('{"error":"busy ', 'z'.repeat(1024));
    const server = scriptedFetch(stream.body, 503);
    const { error } = await outcome(fromRun('http://x', RUN, { fetch: server.fetch, retryDelayMs: 0, maxRetries: 2 }));
    expect(RunConnectionError.isInstance(error)).toBe(true);
    expect(server.urls).toHaveLength(3);
    expect(server.cancelled()).toBe(3);
    expect(stream.sent()).toBeLessThan(3 * 8 * 1024);
  });

  it('a final 404 with an endless body: a RunRequestError with the start of it', async () => {
    const stream = endless('no such run ', 'z'.repeat(1024));
    const { error } = await outcome(fromRun('http://x', RUN, { fetch: scriptedFetch(stream.body, 404).fetch }));
    expect(error).toMatchObject({ name: 'RunRequestError', status: 404, serverError: `no such run ${'z'.repeat(288)}` });
    expect(stream.sent()).toBeLessThan(8 * 1024);
  });

  it('startRun and getRun: an error answer read to 4 KiB; a JSON answer over 32 MiB refused, not read further', async () => {
    const error = endless('{"error":', ' '.repeat(1024));
    await expect(startRun('http://x', { prompt: 'p' }, { fetch: scriptedFetch(error.body, 400).fetch })).rejects.toMatchObject({ status: 400 });
    expect(error.sent()).toBeLessThan(8 * 1024);
    const huge = endless('{"runId":"', 'r'.repeat(64 * 1024));
    const failure = await getRun('http://x', RUN, { fetch: scriptedFetch(huge.body, 200).fetch }).catch((e: unknown) => e);
    expect(RunRequestError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ status: 200, serverError: `the answer is larger than ${32 * MiB} bytes; it was not read further` });
    expect(huge.sent()).toBeLessThan(32 * MiB + 256 * 1024);
  });

  it('a JSON answer of ordinary size is read whole', async () => {
    const server = scriptedFetch(() => JSON.stringify({ runId: RUN, sessionId: 's' }), 201);
    expect(await startRun('http://x', { prompt: 'p' }, { fetch: server.fetch })).toEqual({ runId: RUN, sessionId: 's' });
    expect(await lastValueFrom(fromRun('http://x', RUN, { fetch: scriptedFetch(() => frame(1, runStart) + frame(2, runEnd)).fetch }).pipe(toArray()))).toHaveLength(2);
  });
});
