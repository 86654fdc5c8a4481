/**
 * `streamSse` once its run has ended: a client that stopped reading with less than the
 * backlog cap waiting gets a bounded time (`drainTimeoutMs`, default 30 s) to take the rest,
 * then its connection is destroyed; a client that reads gets everything and a clean end.
 * Real sockets; fake `setTimeout` for the deadline only (the writers' turn-end batching uses
 * `node:timers`, which fake timers leave alone).
 */
import type { ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { concat, from, NEVER, type Observable } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { streamSse, type SseOptions } from '../../src/adapters/index.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';
import { FixtureRun } from './fixtures.js';
import { neverReadingClient } from './never-reading-client.js';
import { connect } from './sse-client.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const served = httpServerPerTest();
afterEach(() => void vi.useRealTimers());

/** 32 MiB of deltas: far more than the loopback socket buffers take, far less than the cap below. */
function bigRun(): AgentEvent[] {
  const main = new FixtureRun('r', 'main');
  const text = 'x'.repeat(64 * KiB);
  return Array.from({ length: 512 }, (_, i) => ({ type: 'ReasonDelta', runId: main.runId, agentName: main.agentName, step: 1, kind: 'text', text: `${i} ${text}` }));
}

/** Serves `streamSse(events$, res)`; resolves to the port and the next response. */
async function serveSse(events$: Observable<AgentEvent>, options: SseOptions) {
  let served$!: (res: ServerResponse) => void;
  const response = new Promise<ServerResponse>((resolve) => (served$ = resolve));
  const url = await served.serve((req, res) => {
    streamSse(events$, res, { keepAliveMs: 0, maxBufferedBytes: 64 * MiB, ...options, request: req });
    served$(res);
  });
  return { url, port: Number(new URL(url).port), response };
}

/** Waits some real turns of the event loop, so every batched frame has been written or queued. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await nextTurn();
}

describe('streamSse: a client that stops reading a finished run', () => {
  it('destroys the connection 30 s after the run ended, not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { port, response } = await serveSse(from(bigRun()), {});
    const client = neverReadingClient(served, port);
    const res = await response;
    await settle();
    const socket = res.socket!;
    expect(res.writableFinished).toBe(false); // bytes still wait for the client
    vi.advanceTimersByTime(29_999);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(socket.destroyed).toBe(true);
    expect(res.destroyed).toBe(true);
    expect(client.destroyed).toBe(false); // the server cut it; the client did nothing
  });

  it('honours a shorter drainTimeoutMs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { port, response } = await serveSse(from(bigRun()), { drainTimeoutMs: 1_000 });
    neverReadingClient(served, port);
    const res = await response;
    await settle();
    vi.advanceTimersByTime(999);
    expect(res.socket!.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(res.destroyed).toBe(true);
  });

  it('leaves a run still going to the backlog cap alone', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { port, response } = await serveSse(concat(from(bigRun()), NEVER), {});
    neverReadingClient(served, port);
    const res = await response;
    await settle();
    vi.advanceTimersByTime(10 * 60_000);
    expect(res.destroyed).toBe(false);
  });

  it('refuses a drain timeout it cannot honour', () => {
    for (const drainTimeoutMs of [-1, Number.NaN, 2 ** 31]) {
      expect(() => streamSse(from([]), {} as ServerResponse, { drainTimeoutMs })).toThrow(/^drainTimeoutMs must be a number of milliseconds from 0 to /);
    }
  });
});

describe('streamSse: a client that reads a finished run', () => {
  it('gets every message and a clean end, and leaves no deadline behind', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const events = bigRun().slice(0, 64);
    const { url, response } = await serveSse(from(events), {});
    const client = await connect(url);
    const res = await response;
    await client.ended;
    await settle();
    expect(client.messages.slice(0, -1).map((m) => JSON.parse(m.data ?? '') as AgentEvent)).toEqual(events);
    expect(client.messages.at(-1)).toEqual({ event: 'end', data: '{}' });
    expect(res.writableFinished).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
