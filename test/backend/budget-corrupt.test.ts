/**
 * A pool's budget hash in Redis holding what the budget scripts never write (a count of
 * `abc`, a key of another type) failed the scripts with a Lua error naming neither key nor
 * field ("attempt to perform arithmetic on local 'limit' (a nil value)", "hash value is not
 * an integer"). Now the run fails saying which budget is corrupt, and how.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RedisTokenBudget } from '../../src/backend/redis-budget.js';
import type { RedisBackend } from '../../src/backend/redis-backend.js';
import { HAS_REDIS } from './redis-server.js';
import { eventsOf, useScaleKits } from './scale-kit.js';

const CORRUPT = /^the token budget stored at \S+:budget:\S+ in Redis is corrupt: /;

describe.skipIf(!HAS_REDIS)('a corrupt token budget in Redis', () => {
  const scale = useScaleKits();

  it.each([
    ['limit', 'abc'],
    ['used', 'abc'],
    ['reserved', '1.5'],
    ['last', 'x'],
  ])('a reservation names the key and its %s field', async (field, value) => {
    const kit = await scale.kit();
    const backend = await kit.backend();
    const pool = backend.newTokenBudget(100) as RedisTokenBudget;
    const { key } = pool.shared.nodes[0]!;
    await backend.parts.redis.hset(key, field, value);
    const reserving = pool.reserve(1);
    await expect(reserving).rejects.toMatchObject({ name: 'RedisBackendError', message: expect.stringMatching(CORRUPT) });
    await expect(reserving).rejects.toThrow(`${key} in Redis is corrupt: its "${field}" is "${value}", not a whole number`);
  });

  it('a settle names it too, and a key of another type is named as such', async () => {
    const kit = await scale.kit();
    const backend = await kit.backend();
    const pool = backend.newTokenBudget(100) as RedisTokenBudget;
    const { key } = pool.shared.nodes[0]!;
    const reservation = await pool.reserve(1);
    await backend.parts.redis.hset(key, 'used', 'abc');
    await expect(reservation!.settle(1)).rejects.toThrow(`${key} in Redis is corrupt: its "used" is "abc", not a whole number`);
    await backend.parts.redis.del(key);
    await backend.parts.redis.set(key, 'planted');
    await expect(pool.reserve(1)).rejects.toThrow(`${key} in Redis is corrupt: it is a string, not a hash`);
  });

  it('a run whose pool is corrupt ends with that error', async () => {
    const kit = await scale.kit();
    kit.fixture.route({ main: () => ({ text: 'never asked' }) });
    const backend = await kit.backend();
    const planter = new Redis(scale.redis.url);
    try {
      // The run's pool, planted with a count no script writes before its first request.
      const key = `${kit.prefix}:budget:planted`;
      await planter.hset(key, 'limit', '1000', 'used', 'abc');
      const { redis, keys } = backend.parts;
      const planted = (limit: number) => RedisTokenBudget.attach(redis, keys, { nodes: [{ key, limit }], remaining: limit });
      const engine = await kit.engine({ tokenBudget: 1_000 }, [], withBudget(backend, planted));
      const events = await eventsOf(engine.stream('go'));
      expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining(`${key} in Redis is corrupt: its "used" is "abc"`) });
      expect(kit.fixture.server.requests).toHaveLength(0);
    } finally {
      planter.disconnect();
    }
  });
});

/** `backend` making its pools with `budget` (every other member its own, bound to it). */
function withBudget(backend: RedisBackend, budget: (limit: number) => RedisTokenBudget): RedisBackend {
  return new Proxy(backend, {
    get(target, name) {
      if (name === 'newTokenBudget') return budget;
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
