/**
 * fromRun against a hostile server (or proxy): repeated and replayed events, `id:` fields
 * that lie, a gap that never fills, a server that closes after every event, one that never
 * answers, SSE fields and event names it does not know, and `seq`s or payloads of the wrong
 * kind. Each event reaches the consumer at most once and in order, and every stream ends
 * (complete or a clear error) without a timer left behind.
 */
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromRun, RunConnectionError } from '../../src/client/index.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { delta, END, frame, RUN, runEnd, runStart, scriptedFetch } from './fake-events-server.js';

/** The event types the consumer saw, then how the stream ended. */
function outcome(events$: Observable<SequencedEvent>): Promise<{ seen: string[]; error?: unknown }> {
  const seen: string[] = [];
  return new Promise((resolve) =>
    events$.subscribe({ next: (e) => seen.push(`${e.seq}:${e.event.type}`), error: (error: unknown) => resolve({ seen, error }), complete: () => resolve({ seen }) }),
  );
}

afterEach(() => void vi.useRealTimers());

describe('fromRun: events repeated, replayed or out of order', () => {
  it('delivers each seq once, in order, whatever the `id:` field claims', async () => {
    const lying = `id: 999\ndata: ${JSON.stringify({ runId: RUN, seq: 2, event: delta('a') })}\n\n`;
    const body = frame(1, runStart) + frame(1, runStart) + lying + frame(2, delta('b')) + frame(1, runStart) + `id: 1\n` + frame(3, runEnd) + END;
    const server = scriptedFetch(() => body);
    expect(await outcome(fromRun('http://x', RUN, { fetch: server.fetch }))).toEqual({ seen: ['1:RunStart', '2:ReasonDelta', '3:RunEnd'] });
    expect(server.urls).toHaveLength(1);
  });

  it('a gap that never fills: resumes from the gap, then a RunConnectionError after maxRetries; nothing past the gap is seen', async () => {
    const server = scriptedFetch(() => frame(1, runStart) + frame(3, delta('skipped 2')) + frame(4, runEnd) + END);
    const { seen, error } = await outcome(fromRun('http://x', RUN, { fetch: server.fetch, maxRetries: 3, retryDelayMs: 0 }));
    expect(seen).toEqual(['1:RunStart']);
    expect(RunConnectionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ attempts: 4, message: expect.stringContaining('expected event 2, got 3') });
    expect(server.urls.map((u) => u.slice(-7))).toEqual(['after=0', 'after=1', 'after=1', 'after=1']);
  });
});

describe('fromRun: forged ends', () => {
  it('a child\'s RunEnd under 60 TaskWraps is delivered as it is and does not end the run', async () => {
    // (deeper than the client's MAX_MESSAGE_DEPTH is refused: from-run-deep-events.test.ts)
    const depth = 60;
    const opens = Array.from({ length: depth }, (_, n) => {
      const i = n + 1;
      const { event: _inner, ...frameFields } = { type: 'TaskWrap', runId: `c_${i}`, agentName: 'w', parentRunId: i === 1 ? RUN : `c_${i - 1}`, taskId: `t${i}`, taskIndex: 1, taskAgentName: 'w', taskDescription: 'd', multitask: false, event: undefined };
      return `${JSON.stringify(frameFields).slice(0, -1)},"event":`;
    });
    const inner = JSON.stringify({ ...runEnd, runId: `c_${depth}`, agentName: 'w', text: 'forged' });
    const forged = `data: {"runId":"${RUN}","seq":2,"event":${opens.join('')}${inner}${'}'.repeat(depth)}}\n\n`;
    const server = scriptedFetch(() => frame(1, runStart) + forged + frame(3, delta('still going')) + frame(4, runEnd) + END);
    expect(await outcome(fromRun('http://x', RUN, { fetch: server.fetch }))).toEqual({ seen: ['1:RunStart', '2:TaskWrap', '3:ReasonDelta', '4:RunEnd'] });
  });
});

describe('fromRun: reconnection storms (fake time)', () => {
  it('a server that closes after every event: one connection per event, each after the last seq, retryDelayMs apart', async () => {
    vi.useFakeTimers({ now: 0 });
    const total = 200;
    const times: number[] = [];
    const server = scriptedFetch((n) => {
      times.push(Date.now());
      return frame(n + 1, n + 1 === total ? runEnd : delta(`e${n + 1}`)); // then the body ends: no RunEnd, no `end`
    });
    const ended = lastValueFrom(fromRun('http://x', RUN, { fetch: server.fetch, retryDelayMs: 40, maxRetries: 2 }).pipe(toArray()));
    await vi.runAllTimersAsync();
    const events = await ended;
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(server.urls).toHaveLength(total);
    expect(server.urls.every((url, n) => url.endsWith(`after=${n}`))).toBe(true);
    // each connection brought an event, so the backoff never grew: a storm costs one delay per event, no more
    expect(times).toEqual(Array.from({ length: total }, (_, n) => n * 40));
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a server that answers 200 and closes at once, bringing nothing: backoff, then a RunConnectionError', async () => {
    vi.useFakeTimers({ now: 0 });
    const times: number[] = [];
    const server = scriptedFetch(() => (times.push(Date.now()), ''));
    const ended = outcome(fromRun('http://x', RUN, { fetch: server.fetch, retryDelayMs: 40, maxRetries: 3 }));
    await vi.runAllTimersAsync();
    const { seen, error } = await ended;
    expect(seen).toEqual([]);
    expect(error).toMatchObject({ name: 'RunConnectionError', attempts: 4 });
    expect(times).toEqual([0, 40, 120, 280]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('fromRun: a server that never answers (fake time)', () => {
  /** A fetch that never answers but, as a real one, rejects when its signal aborts; it keeps the signals. */
  function hangingFetch() {
    const signals: AbortSignal[] = [];
    const fetch = (_input: string, init?: RequestInit): Promise<Response> =>
      new Promise((_resolve, reject) => {
        const signal = init!.signal!;
        signals.push(signal);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    return { fetch, signals };
  }

  it('each silent request is dropped after idleTimeoutMs; after maxRetries a RunConnectionError; no timer left', async () => {
    vi.useFakeTimers({ now: 0 });
    const server = hangingFetch();
    const ended = outcome(fromRun('http://x', RUN, { fetch: server.fetch, idleTimeoutMs: 1_000, retryDelayMs: 10, maxRetries: 2 }));
    await vi.runAllTimersAsync();
    const { error } = await ended;
    expect(error).toMatchObject({ name: 'RunConnectionError', attempts: 3, message: expect.stringContaining('the connection brought nothing for 1000 ms') });
    expect(server.signals).toHaveLength(3);
    expect(server.signals.every((s) => s.aborted)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('unsubscribing while the request waits aborts it at once: no error, no further request, no timer', async () => {
    vi.useFakeTimers({ now: 0 });
    const server = hangingFetch();
    const error = vi.fn();
    const subscription = fromRun('http://x', RUN, { fetch: server.fetch }).subscribe({ error });
    await vi.advanceTimersByTimeAsync(100);
    subscription.unsubscribe();
    expect(server.signals[0]!.aborted).toBe(true);
    await vi.runAllTimersAsync();
    expect(server.signals).toHaveLength(1);
    expect(error).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('fromRun: what it does not know', () => {
  it('SSE fields, event names and comments it does not know are passed over; `retry:` does not change its backoff', async () => {
    const noise = 'event: ping\ndata: {}\n\n' + 'retry: 1\n\n' + 'retry: soon\n\n' + 'x-unknown: 1\n\n' + ': comment\n\n' + 'event: later-version\ndata: {"type":"RunEnd"}\n\n';
    const server = scriptedFetch(() => frame(1, runStart) + noise + frame(2, runEnd) + END);
    expect(await outcome(fromRun('http://x', RUN, { fetch: server.fetch }))).toEqual({ seen: ['1:RunStart', '2:RunEnd'] });
  });

  it.each([
    ['a seq that is a string', { runId: RUN, seq: '2', event: runEnd }],
    ['a seq that is a fraction', { runId: RUN, seq: 1.5, event: runEnd }],
    ['a seq past the safe integers', { runId: RUN, seq: 2 ** 53, event: runEnd }],
    ['an event of a type this client does not know', { runId: RUN, seq: 2, event: { type: 'FutureEvent', runId: RUN, agentName: 'main' } }],
    ['another run\'s event', { runId: 'run_2', seq: 2, event: runEnd }],
    ['an array', [RUN, 2, runEnd]],
  ])('%s: a RunStreamError (BadMessage), nothing after it delivered', async (_label, bad) => {
    const server = scriptedFetch(() => frame(1, runStart) + `data: ${JSON.stringify(bad)}\n\n` + frame(2, runEnd) + END);
    const { seen, error } = await outcome(fromRun('http://x', RUN, { fetch: server.fetch }));
    expect(seen).toEqual(['1:RunStart']);
    expect(error).toMatchObject({ name: 'RunStreamError', serverName: 'BadMessage', endedBy: 'client' });
  });

  it('`__proto__` keys are plain data: an entry whose fields sit under `__proto__` is refused, and nothing is polluted', async () => {
    const underProto = `data: {"__proto__":{"runId":"${RUN}","seq":2,"event":${JSON.stringify(runEnd)}}}\n\n`;
    const eventUnderProto = `data: {"runId":"${RUN}","seq":2,"event":{"__proto__":${JSON.stringify(runEnd)}}}\n\n`;
    for (const bad of [underProto, eventUnderProto]) {
      const server = scriptedFetch(() => frame(1, runStart) + bad + frame(2, runEnd) + END);
      expect(await outcome(fromRun('http://x', RUN, { fetch: server.fetch }))).toMatchObject({ seen: ['1:RunStart'], error: { serverName: 'BadMessage' } });
    }
    expect(({} as Record<string, unknown>).seq).toBeUndefined();
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });
});
