/**
 * A silent partition between a follower and Redis (packets dropped, no FIN or RST): its
 * blocking `XREAD` waited for ever, so every SSE reader of those logs froze while the runs
 * went on. Now a connection that answers nothing for `blockMs + connectTimeoutMs` is taken as
 * dropped: the follower connects again and reads on, or its readers end saying Redis was
 * unreachable. A reader's replay (`XRANGE` on the command connection) is bounded by
 * `connectTimeoutMs` alike. The follower reads through a proxy (`blip-proxy.ts`) blackholed on cue; the
 * writer writes to Redis directly, as another instance.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareIds, LogFollower, type FollowingReader, type StreamEntry } from '../../src/backend/log-follower.js';
import { redisBackend, type RedisBackend } from '../../src/backend/redis-backend.js';
import { RedisBackendError } from '../../src/backend/redis-backend-error.js';
import { connectRedis } from '../../src/backend/redis-connection.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { record } from '../support/collect-events.js';
import { handleCounts, leakedHandles } from '../support/handle-counts.js';
import { blipProxy } from './blip-proxy.js';
import { HAS_REDIS, startRedis, type RedisServer } from './redis-server.js';
import { waitFor } from './scale-kit.js';

const event = (n: number): AgentEvent => ({ type: 'Warning', runId: 'r', agentName: 'main', code: 'TEST', message: `event ${n}` }) as AgentEvent;
const range = (to: number): number[] => Array.from({ length: to }, (_, i) => i + 1);

describe.skipIf(!HAS_REDIS)('a follower cut off from Redis by a silent partition', () => {
  let redis: RedisServer;
  let writer: RedisBackend;
  let probe: Redis;
  /** Waits for one client blocked in an XREAD (each test closes its proxy, and with it the silenced ones). */
  const blockedRead = async (): Promise<void> =>
    waitFor(async () => String(await probe.client('LIST')).split('\n').filter((line) => /\bflags=\w*b/.test(line) && /\bcmd=xread\b/.test(line)).length === 1);

  beforeAll(async () => {
    redis = await startRedis();
    writer = await redisBackend({ url: redis.url, prefix: 'hole' });
    probe = await connectRedis(redis.url, 5000);
  });
  afterAll(async () => {
    probe?.disconnect();
    await writer?.close();
    await redis?.stop();
  });

  it('gives up the XREAD that never answers, connects again once the partition heals, and reads on: every event once, in order, then the end', async () => {
    const proxy = await blipProxy(redis.port);
    const follower = await redisBackend({ url: proxy.url, prefix: 'hole', connectTimeoutMs: 2000 });
    try {
      await writer.eventLog.append({ runId: 'healed', seq: 1, event: event(1) });
      const reader = record(follower.eventLog.read('healed', 0));
      await waitFor(() => reader.events.length === 1);
      await blockedRead();
      const accepted = proxy.accepted();
      proxy.blackhole();
      for (let seq = 2; seq <= 4; seq++) await writer.eventLog.append({ runId: 'healed', seq, event: event(seq) });
      // Its connection answers nothing, for good: the follower lets go of it and connects again.
      await waitFor(() => proxy.accepted() > accepted);
      proxy.heal();
      await waitFor(() => reader.events.length === 4);
      await writer.eventLog.append({ runId: 'healed', seq: 5, event: event(5) });
      await writer.eventLog.end('healed', { kind: 'complete' });
      await reader.done;
      expect(reader.error).toBeUndefined();
      expect(reader.completed).toBe(true);
      expect(reader.events.map((e) => e.seq)).toEqual(range(5));
      expect(reader.events.map((e) => e.event)).toEqual(range(5).map(event));
    } finally {
      await follower.close();
      await proxy.close();
    }
  }, 60_000);

  it('ends its readers saying Redis was unreachable when the partition outlasts connectTimeoutMs', async () => {
    const proxy = await blipProxy(redis.port);
    const follower = await redisBackend({ url: proxy.url, prefix: 'hole', connectTimeoutMs: 300 });
    try {
      await writer.eventLog.append({ runId: 'lost', seq: 1, event: event(1) });
      const reader = record(follower.eventLog.read('lost', 0));
      await waitFor(() => reader.events.length === 1);
      await blockedRead();
      proxy.blackhole();
      await reader.done;
      expect(RedisBackendError.isInstance(reader.error)).toBe(true);
      const message = (reader.error as Error).message;
      expect(message).toContain('Redis was unreachable for 300 ms (connectTimeoutMs) while reading the event log of lost: ');
      expect(message).toContain(`cannot reach Redis at ${proxy.url}`);
    } finally {
      await follower.close();
      await proxy.close();
    }
  }, 60_000);

  it('ends a reader whose replay Redis never answers (its command connection partitioned too), saying Redis was unreachable', async () => {
    const proxy = await blipProxy(redis.port);
    const follower = await redisBackend({ url: proxy.url, prefix: 'hole', connectTimeoutMs: 300 });
    try {
      await writer.eventLog.append({ runId: 'replay', seq: 1, event: event(1) });
      proxy.blackhole();
      const reader = record(follower.eventLog.read('replay', 0));
      await reader.done;
      expect(reader.events).toEqual([]);
      expect(RedisBackendError.isInstance(reader.error)).toBe(true);
      expect((reader.error as Error).message).toBe(
        'Redis was unreachable for 300 ms (connectTimeoutMs) while reading the event log of replay: no answer within 300 ms. The run may go on elsewhere: attach to it again once Redis is reachable.',
      );
    } finally {
      await follower.close();
      await proxy.close();
    }
  }, 60_000);

  it('closed during the partition, leaves no timer or socket behind, though its peer never answers the close', async () => {
    const proxy = await blipProxy(redis.port);
    const command = await connectRedis(proxy.url, 5000);
    const key = 'hole:closed';
    const last = String(await probe.xadd(key, '*', 'n', '1'));
    const baseline = handleCounts();
    const proxied = proxy.openSockets();
    const follower = new LogFollower(command, { blockMs: 60_000, connectTimeoutMs: 5000 });
    const failures: Error[] = [];
    const reader: FollowingReader & { got: string[] } = {
      key,
      runId: 'closed',
      last,
      got: [],
      deliver(entries: readonly StreamEntry[]) {
        for (const [id, fields] of entries) if (compareIds(id, last) > 0) this.got.push(fields[1]!);
      },
      fail: (e) => failures.push(e),
    };
    try {
      follower.follow(reader);
      await blockedRead();
      proxy.blackhole();
      follower.close();
      // The follower's socket, and the timer bounding its XREAD, go at once: ioredis would
      // otherwise wait 2 s for a FIN that never comes (a window the check below is shorter than).
      const leaked = await leakedHandles(baseline, 1000);
      // What may stay is the proxy's: the silenced connection's ends, which never hear of the close.
      const kept = proxy.openSockets() - proxied;
      expect(leaked).toEqual(kept > 0 ? { TCPSocketWrap: kept } : {});
      expect(failures).toEqual([]);
      expect(reader.got).toEqual([]);
    } finally {
      command.disconnect();
      await proxy.close();
    }
  }, 60_000);
});
