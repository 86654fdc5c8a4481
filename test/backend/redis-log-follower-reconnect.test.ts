/**
 * The follower's connection dropped under it (`CLIENT KILL`, a network blip): its readers
 * ended with "Redis failed while reading the event log" though the run went on and Redis was
 * back a moment later (another instance's SSE streams ended in `event: error` while the run
 * completed), or, when ioredis sent the `XREAD` again by itself, the follower went on
 * interrupting (`CLIENT UNBLOCK`) a client id that was gone. Now it connects again and reads
 * on from where each reader stopped; only Redis unreachable for longer than
 * `connectTimeoutMs` ends its readers, with an error saying so. Two backends on one Redis, as
 * two instances: one writes, the other follows.
 */
import http from 'node:http';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisBackend, type RedisBackend } from '../../src/backend/redis-backend.js';
import { RedisBackendError } from '../../src/backend/redis-backend-error.js';
import { connectRedis } from '../../src/backend/redis-connection.js';
import { RedisEventLog } from '../../src/backend/redis-event-log.js';
import { streamRunEvents } from '../../src/http/stream-run-events.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { record, type EventRecording } from '../support/collect-events.js';
import { handleCounts, leakedHandles } from '../support/handle-counts.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';
import { blipProxy } from './blip-proxy.js';
import { HAS_REDIS, startRedis, type RedisServer } from './redis-server.js';
import { waitFor } from './scale-kit.js';

const event = (n: number): AgentEvent => ({ type: 'Warning', runId: 'r', agentName: 'main', code: 'TEST', message: `event ${n}` }) as AgentEvent;
const range = (to: number): number[] => Array.from({ length: to }, (_, i) => i + 1);
const seqs = (events: readonly SequencedEvent[]): number[] => events.map((e) => e.seq);
const served = httpServerPerTest();

/** A response's body as it comes (`text`), and all of it once it ended (`whole`). */
function streamed(url: string): { text: () => string; whole: Promise<string> } {
  let body = '';
  const whole = new Promise<string>((resolve, reject) => {
    http
      .get(url, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
  return { text: () => body, whole };
}

describe.skipIf(!HAS_REDIS)('a follower whose Redis connection is killed', () => {
  let redis: RedisServer;
  let writer: RedisBackend;
  let follower: RedisBackend;
  let probe: Redis;
  /** The follower's log: a minute's block (the backend's is a second), so a reader missed by a `CLIENT UNBLOCK` waits past every wait below. */
  let log: RedisEventLog;
  let n = 0;
  const run = (name: string): string => `${name}-${++n}`;
  /** Waits for the follower to block in its XREAD (on a new connection after a kill), and returns its client id. */
  const blockedReader = async (): Promise<string> => {
    let ids: string[] = [];
    await waitFor(async () => {
      const lines = String(await probe.client('LIST')).split('\n');
      ids = lines.filter((line) => /\bflags=\w*b/.test(line) && /\bcmd=xread\b/.test(line)).map((line) => /\bid=(\d+)/.exec(line)![1]!);
      return ids.length === 1;
    });
    return ids[0]!;
  };
  /** A reader of a new log, following it after its first event; its second comes only through the follower's XREAD. */
  const joiner = async (): Promise<EventRecording<SequencedEvent>> => {
    const id = run('joiner');
    await writer.eventLog.append({ runId: id, seq: 1, event: event(1) });
    const joined = record(log.read(id, 0));
    await waitFor(() => joined.events.length === 1); // replayed, and following now
    await writer.eventLog.append({ runId: id, seq: 2, event: event(2) });
    await waitFor(() => joined.events.length === 2);
    await writer.eventLog.end(id, { kind: 'complete' });
    await joined.done;
    return joined;
  };

  beforeAll(async () => {
    redis = await startRedis();
    writer = await redisBackend({ url: redis.url, prefix: 'drop' });
    follower = await redisBackend({ url: redis.url, prefix: 'drop' });
    const { redis: command, keys } = follower.parts;
    log = new RedisEventLog(command, keys, { retentionMs: 60_000, maxLiveMs: 60_000, blockMs: 60_000, connectTimeoutMs: 5000 });
    probe = await connectRedis(redis.url, 5000);
  });
  afterAll(async () => {
    log?.closeReaders();
    probe?.disconnect();
    await writer?.close();
    await follower?.close();
    await redis?.stop();
  });

  it('reads on after CLIENT KILL ID: every event once, in order, then the end; a reader that comes after is woken on the new connection', async () => {
    const id = run('kill-id');
    await writer.eventLog.append({ runId: id, seq: 1, event: event(1) });
    const reader = record(log.read(id, 0));
    await waitFor(() => reader.events.length === 1);
    await writer.eventLog.append({ runId: id, seq: 2, event: event(2) });
    await waitFor(() => reader.events.length === 2);
    await probe.client('KILL', 'ID', await blockedReader());
    for (let seq = 3; seq <= 6; seq++) await writer.eventLog.append({ runId: id, seq, event: event(seq) });
    await waitFor(() => reader.events.length === 6);
    const joined = await joiner();
    expect(seqs(joined.events)).toEqual([1, 2]);
    await writer.eventLog.end(id, { kind: 'complete' });
    await reader.done;
    expect(reader.error).toBeUndefined();
    expect(reader.completed).toBe(true);
    expect(seqs(reader.events)).toEqual(range(6));
    expect(reader.events.map((e) => e.event)).toEqual(range(6).map(event));
  }, 60_000);

  it('reads on through five kills in a row of every normal client (CLIENT KILL TYPE normal), a reader letting go and coming back after its last seq each time', async () => {
    const id = run('kill-all');
    await writer.eventLog.append({ runId: id, seq: 1, event: event(1) });
    const steady = record(log.read(id, 0));
    let detaching = record(log.read(id, 0));
    await waitFor(() => steady.events.length === 1 && detaching.events.length === 1);
    const taken: SequencedEvent[] = [];
    let seq = 1;
    for (let kill = 0; kill < 5; kill++) {
      await blockedReader();
      await probe.call('CLIENT', 'KILL', 'TYPE', 'normal');
      // As an SSE stream at a full socket: it lets go, and attaches again after the last seq it took.
      taken.push(...detaching.events);
      detaching.subscription.unsubscribe();
      detaching = record(log.read(id, taken.at(-1)!.seq));
      for (let i = 0; i < 3; i++) await writer.eventLog.append({ runId: id, seq: ++seq, event: event(seq) });
      expect(seqs((await joiner()).events)).toEqual([1, 2]);
      await waitFor(() => steady.events.length === seq);
    }
    await writer.eventLog.end(id, { kind: 'complete' });
    await steady.done;
    await detaching.done;
    taken.push(...detaching.events);
    for (const recording of [steady, detaching]) {
      expect(recording.error).toBeUndefined();
      expect(recording.completed).toBe(true);
    }
    expect(seqs(steady.events)).toEqual(range(seq));
    expect(seqs(taken)).toEqual(range(seq));
    expect(taken.map((e) => e.event)).toEqual(range(seq).map(event));
  }, 60_000);

  it('ends its readers at once, saying so, when Redis refuses the XREAD: a reply of Redis is no dropped connection', async () => {
    const id = run('refused');
    await writer.eventLog.append({ runId: id, seq: 1, event: event(1) });
    const reader = record(log.read(id, 0));
    await waitFor(() => reader.events.length === 1);
    await blockedReader();
    await probe.call('ACL', 'SETUSER', 'default', '-xread');
    try {
      // A reader of another log interrupts the XREAD in flight; the next one is refused.
      const other = run('refused-other');
      await writer.eventLog.append({ runId: other, seq: 1, event: event(1) });
      const late = record(log.read(other, 0));
      await Promise.all([reader.done, late.done]);
      for (const recording of [reader, late]) {
        expect(RedisBackendError.isInstance(recording.error)).toBe(true);
        expect((recording.error as Error).message).toMatch(/^Redis failed while reading the event log of refused(-other)?-\d+: NOPERM/);
      }
    } finally {
      await probe.call('ACL', 'SETUSER', 'default', '+xread');
    }
  }, 20_000);
});

describe.skipIf(!HAS_REDIS)('a follower whose Redis is unreachable for a while', () => {
  let redis: RedisServer;
  let writer: RedisBackend;
  beforeAll(async () => {
    redis = await startRedis();
    writer = await redisBackend({ url: redis.url, prefix: 'blip' });
  });
  afterAll(async () => {
    await writer?.close();
    await redis?.stop();
  });

  it('reads on after a network blip shorter than connectTimeoutMs, however many attempts to connect failed in it', async () => {
    const proxy = await blipProxy(redis.port);
    const follower = await redisBackend({ url: proxy.url, prefix: 'blip' });
    try {
      await writer.eventLog.append({ runId: 'blip', seq: 1, event: event(1) });
      const reader = record(follower.eventLog.read('blip', 0));
      await waitFor(() => reader.events.length === 1);
      // The command connection, with the backend's reconnect delays, counts the attempts refused.
      let attempts = 0;
      follower.parts.redis.on('reconnecting', () => (attempts += 1));
      proxy.cut(Infinity);
      for (let seq = 2; seq <= 4; seq++) await writer.eventLog.append({ runId: 'blip', seq, event: event(seq) });
      await waitFor(() => attempts >= 4);
      proxy.restore();
      await waitFor(() => reader.events.length === 4);
      await writer.eventLog.end('blip', { kind: 'complete' });
      await reader.done;
      expect(reader.error).toBeUndefined();
      expect(reader.completed).toBe(true);
      expect(seqs(reader.events)).toEqual(range(4));
    } finally {
      await follower.close();
      await proxy.close();
    }
  }, 60_000);

  it("an SSE stream served by the following instance goes on through the blip: every event once, then the run's end", async () => {
    const proxy = await blipProxy(redis.port);
    const follower = await redisBackend({ url: proxy.url, prefix: 'blip' });
    try {
      await writer.eventLog.append({ runId: 'sse', seq: 1, event: event(1) });
      const url = await served.serve((_req, res) => streamRunEvents((after) => follower.eventLog.read('sse', after), 0, res, 0, () => false));
      const body = streamed(url);
      await waitFor(() => body.text().includes('id: 1\n'));
      let attempts = 0;
      follower.parts.redis.on('reconnecting', () => (attempts += 1));
      proxy.cut(Infinity);
      for (let seq = 2; seq <= 4; seq++) await writer.eventLog.append({ runId: 'sse', seq, event: event(seq) });
      await waitFor(() => attempts >= 4);
      proxy.restore();
      await writer.eventLog.append({ runId: 'sse', seq: 5, event: event(5) });
      await writer.eventLog.end('sse', { kind: 'complete' });
      const text = await body.whole;
      expect(text).not.toContain('event: error');
      expect([...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]))).toEqual([1, 2, 3, 4, 5, 6]); // 6: the ending's
      expect(text).toMatch(/event: end\ndata: \{\}\nid: 6\n\n$/);
    } finally {
      await follower.close();
      await proxy.close();
    }
  }, 60_000);

  it('ends its readers past connectTimeoutMs saying Redis was unreachable, leaving no timer or connection', async () => {
    const proxy = await blipProxy(redis.port);
    const baseline = handleCounts();
    const follower = await redisBackend({ url: proxy.url, prefix: 'blip', connectTimeoutMs: 300 });
    try {
      await writer.eventLog.append({ runId: 'gone', seq: 1, event: event(1) });
      const reader = record(follower.eventLog.read('gone', 0));
      await waitFor(() => reader.events.length === 1);
      proxy.cut(Infinity);
      await reader.done;
      expect(RedisBackendError.isInstance(reader.error)).toBe(true);
      const message = (reader.error as Error).message;
      expect(message).toContain('Redis was unreachable for 300 ms (connectTimeoutMs) while reading the event log of gone: ');
      expect(message).toContain(`cannot reach Redis at ${proxy.url}`);
    } finally {
      await follower.close();
    }
    expect(await leakedHandles(baseline)).toEqual({});
    await proxy.close();
  }, 60_000);

  it('stops trying to connect when the backend closes while Redis is unreachable', async () => {
    const proxy = await blipProxy(redis.port);
    const baseline = handleCounts();
    const follower = await redisBackend({ url: proxy.url, prefix: 'blip', connectTimeoutMs: 60_000 });
    await writer.eventLog.append({ runId: 'closed', seq: 1, event: event(1) });
    const reader = record(follower.eventLog.read('closed', 0));
    await waitFor(() => reader.events.length === 1);
    let attempts = 0;
    follower.parts.redis.on('reconnecting', () => (attempts += 1));
    proxy.cut(Infinity);
    await waitFor(() => attempts >= 4); // the follower is between attempts too
    await follower.close();
    await reader.done;
    expect((reader.error as Error).message).toBe('the Redis backend was closed');
    expect(await leakedHandles(baseline)).toEqual({});
    await proxy.close();
  }, 60_000);
});
