/**
 * `RedisSharedRuns.create` listens on the runs channel before it loads the runs Redis keeps.
 * When that load failed, the listener stayed with the hub (and the hub's subscription to the
 * channel with Redis) until the hub closed, though nobody had its stop. A create that fails
 * now lets go of the channel first. No stored data fails the load (a key of another type or a
 * record of another shape is passed over), so here Redis refuses it: an ACL without `HGETALL`.
 */
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChannelHub } from '../../src/backend/channel-hub.js';
import { RedisKeys } from '../../src/backend/redis-keys.js';
import { RedisSharedRuns } from '../../src/backend/redis-shared-runs.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

const USER = 'noload';

describe.skipIf(!HAS_REDIS)('RedisSharedRuns.create whose load fails', () => {
  const file = redisBackendPerFile('runscreatefail', 60_000);
  let limited: Redis;
  let sub: Redis;
  let hub: ChannelHub;
  beforeEach(async () => {
    await file.backend.parts.redis.call('ACL', 'SETUSER', USER, 'reset', 'on', '>pw', '~*', '&*', '+@all', '-hgetall');
    limited = new Redis(file.redis.url, { username: USER, password: 'pw', maxRetriesPerRequest: 0 });
    sub = new Redis(file.redis.url);
    hub = new ChannelHub(sub);
  });
  afterEach(async () => {
    hub.close();
    limited.disconnect();
    await file.backend.parts.redis.call('ACL', 'DELUSER', USER);
  });

  /** How many connections Redis has subscribed to `channel`. */
  async function subscribers(channel: string): Promise<number> {
    const [, count] = (await file.backend.parts.redis.pubsub('NUMSUB', channel)) as [string, number];
    return count;
  }

  it("rejects with Redis's refusal, and leaves no listener on the runs channel", async () => {
    const keys = new RedisKeys('runscreatefail_a');
    await file.backend.parts.redis.hset(keys.runs, 'run_1', '{"info":{}}');
    await expect(RedisSharedRuns.create(limited, keys, hub, 'instance_a')).rejects.toThrow(/NOPERM/);
    await sub.ping(); // after the hub's UNSUBSCRIBE, on the same connection
    expect(await subscribers(keys.runsChannel)).toBe(0);
  });

  it('a create after the failed one holds the channel alone: its stop unsubscribes', async () => {
    const keys = new RedisKeys('runscreatefail_b');
    await expect(RedisSharedRuns.create(limited, keys, hub, 'instance_b')).rejects.toThrow(/NOPERM/);
    const { stop } = await RedisSharedRuns.create(file.backend.parts.redis, keys, hub, 'instance_b');
    try {
      await sub.ping();
      expect(await subscribers(keys.runsChannel)).toBe(1);
    } finally {
      stop();
    }
    await sub.ping();
    expect(await subscribers(keys.runsChannel)).toBe(0);
  });
});
