/**
 * A lying server reporting a huge usage on many requests in flight at once (a wide
 * multitask): each settle added up to 2^53 to the pool's `used`, which passed 18 digits after
 * about 112 of them; the rest then failed on their own record being "corrupt ... Something
 * other than rxharness wrote it", and their reservations stayed held until the pool expired.
 * `used` now stops 2^53 past the limit (spent all the same), so every settle counts.
 */
import { describe, expect, it } from 'vitest';
import { RedisTokenBudget } from '../../src/backend/redis-budget.js';
import type { BudgetReservation } from '../../src/model/token-budget.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('many reservations settled with a huge usage, with the budget in Redis', () => {
  const scale = useScaleKits();

  it('all settle, give their reservations back and leave the pool spent', async () => {
    const kit = await scale.kit();
    const { redis, keys } = (await kit.backend()).parts;
    const pool = RedisTokenBudget.root(redis, keys, 1000);
    const child = pool.child(500) as RedisTokenBudget;
    const held: BudgetReservation[] = [];
    for (let i = 0; i < 120; i++) held.push((await child.reserve(1))!);
    for (const r of held) expect(await r.settle(1e300)).toMatchObject({ limit: 500, remaining: 0 });
    for (const { key, limit } of child.shared.nodes) {
      const { used, reserved } = await redis.hgetall(key);
      expect({ used: Number(used), reserved }).toEqual({ used: limit + 2 ** 53, reserved: '0' });
    }
    expect(await pool.reserve(1)).toBeUndefined();
  });
});
