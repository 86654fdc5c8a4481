import http, { type Server } from 'node:http';
import { finalize, from, Observable, Subject, throwError, type Subscription } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { sseHandler, streamSse } from '../../src/adapters/index.js';
import { FixtureRun, multitaskRun } from './fixtures.js';
import { close, connect, listen } from './sse-client.js';

let server: Server | undefined;

afterEach(async () => {
  vi.useRealTimers();
  if (server) await close(server);
  server = undefined;
});

async function serve(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  return listen(server);
}

/** A run that never ends by itself; `teardown` resolves when it is unsubscribed. */
function endlessRun(): { events$: Observable<AgentEvent>; push: Subject<AgentEvent>; teardown: Promise<void> } {
  const push = new Subject<AgentEvent>();
  let tornDown!: () => void;
  const teardown = new Promise<void>((resolve) => (tornDown = resolve));
  return { events$: push.pipe(finalize(() => tornDown())), push, teardown };
}

describe('sseHandler', () => {
  it('sends the SSE headers, one data message per event with an id, then event: end', async () => {
    const { events } = multitaskRun();
    const url = await serve(sseHandler(() => from(events)));
    const client = await connect(url);
    await client.ended;
    expect(client.statusCode).toBe(200);
    expect(client.headers).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no',
    });
    const data = client.messages.filter((m) => m.event === undefined);
    expect(data.map((m) => JSON.parse(m.data ?? '') as AgentEvent)).toEqual(events);
    expect(data.map((m) => m.id)).toEqual(events.map((_, i) => String(i + 1)));
    expect(client.messages.at(-1)).toEqual({ event: 'end', data: '{}' });
  });

  it('sends keep-alive comments on the interval and clears it at the end', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { events$, push } = endlessRun();
    const url = await serve(sseHandler(() => events$, { keepAliveMs: 1000 }));
    const client = await connect(url);
    push.next(new FixtureRun('r', 'main').start('hi'));
    await client.waitFor((m) => m.data !== undefined);
    expect(client.messages.some((m) => m.comment !== undefined)).toBe(false);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(await client.waitFor((m) => m.comment !== undefined)).toEqual({ comment: 'keep-alive' });
    push.complete();
    await client.ended;
    expect(client.messages.at(-1)?.event).toBe('end');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reports the run’s error as event: error and ends the response', async () => {
    const start = new FixtureRun('r', 'main').start('hi');
    const failing = new Observable<AgentEvent>((s) => {
      s.next(start);
      s.error(Object.assign(new Error('The operation was aborted'), { name: 'AbortError' }));
    });
    const url = await serve(sseHandler(() => failing));
    const client = await connect(url);
    await client.ended;
    expect(JSON.parse(client.messages[0]?.data ?? '')).toEqual(start);
    expect(client.messages.at(-1)).toEqual({ event: 'error', data: JSON.stringify({ name: 'AbortError', message: 'The operation was aborted' }) });
  });

  it('answers a factory that throws with event: error', async () => {
    const url = await serve(sseHandler(() => { throw new TypeError('Add ?prompt=... to the URL'); }));
    const client = await connect(url);
    await client.ended;
    expect(client.messages).toEqual([{ event: 'error', data: JSON.stringify({ name: 'TypeError', message: 'Add ?prompt=... to the URL' }) }]);
  });

  it('unsubscribes the run and clears the keep-alive timer when the client disconnects', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { events$, push, teardown } = endlessRun();
    const url = await serve(sseHandler(() => events$, { keepAliveMs: 500 }));
    const client = await connect(url);
    push.next(new FixtureRun('r', 'main').start('hi'));
    await client.waitFor((m) => m.data !== undefined);
    expect(push.observed).toBe(true);
    client.disconnect();
    await teardown;
    expect(push.observed).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps streaming after a POST body has been read (the request closes, the connection does not)', async () => {
    const { events$, push } = endlessRun();
    let requestClosed!: () => void;
    const closed = new Promise<void>((resolve) => (requestClosed = resolve));
    const url = await serve(sseHandler((req) => {
      req.on('close', requestClosed);
      req.resume();
      return events$;
    }, { keepAliveMs: 0 }));
    const client = await connect(url, { method: 'POST', body: '{"prompt":"hi"}' });
    await closed;
    push.next(new FixtureRun('r', 'main').start('hi'));
    await client.waitFor((m) => m.data !== undefined);
    push.complete();
    await client.ended;
    expect(client.messages.at(-1)?.event).toBe('end');
  });

  it('rejects a keep-alive interval it cannot honour', () => {
    expect(() => sseHandler(() => from([]), { keepAliveMs: -1 })).toThrow(RangeError);
    expect(() => sseHandler(() => from([]), { keepAliveMs: Number.NaN })).toThrow(
      'keepAliveMs must be a number of milliseconds from 0 (off) to 2147483647, got NaN',
    );
  });
});

describe('streamSse', () => {
  it('ends the response without event: end when its subscription is unsubscribed', async () => {
    const { events$, push, teardown } = endlessRun();
    let subscription: Subscription | undefined;
    const url = await serve((_req, res) => {
      subscription = streamSse(events$, res, { keepAliveMs: 0 });
    });
    const client = await connect(url);
    push.next(new FixtureRun('r', 'main').start('hi'));
    await client.waitFor((m) => m.data !== undefined);
    subscription?.unsubscribe();
    await Promise.all([teardown, client.ended]);
    expect(client.messages.map((m) => m.event)).toEqual([undefined]);
  });

  it('notices a disconnect from the response alone, without the request', async () => {
    const { events$, push, teardown } = endlessRun();
    const url = await serve((_req, res) => {
      streamSse(events$, res, { keepAliveMs: 0 });
    });
    const client = await connect(url);
    push.next(new FixtureRun('r', 'main').start('hi'));
    await client.waitFor((m) => m.data !== undefined);
    client.disconnect();
    await teardown;
    expect(push.observed).toBe(false);
  });
});
