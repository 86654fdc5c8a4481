/**
 * A budget's `used` or `reserved` of digits past what Redis counts in (64-bit integers) passed
 * the corrupt-budget check (digits only), and `HINCRBY` failed on it midway through the
 * chain: the run failed on a bare Lua error ("hash value is not an integer"), and the nodes
 * before it kept the reservation, never given back. Such a count is now named corrupt
 * before the first write.
 */
import { describe, expect, it } from 'vitest';
import type { RedisTokenBudget } from '../../src/backend/redis-budget.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('a budget count past 64 bits in Redis', () => {
  const scale = useScaleKits();

  it.each(['used', 'reserved'])('a %s of 20 digits is named corrupt, and no node of the chain is changed', async (field) => {
    const kit = await scale.kit();
    const backend = await kit.backend();
    const pool = backend.newTokenBudget(1_000) as RedisTokenBudget;
    const child = pool.child(500) as RedisTokenBudget;
    const [own, root] = child.shared.nodes.map((n) => n.key) as [string, string];
    const value = '99999999999999999999';
    // A limit past 64 bits is one older versions wrote (a pool of 1e21): tonumber reads it, no HINCRBY touches it.
    await backend.parts.redis.hset(root, 'limit', '1000000000000000000000', field, value);
    await expect(child.reserve(10)).rejects.toThrow(`${root} in Redis is corrupt: its "${field}" is "${value}", not a whole number`);
    expect(await backend.parts.redis.hget(own, 'reserved')).toBeNull();
  });
});

describe.skipIf(!HAS_REDIS)('a limit past 64 bits, as older versions wrote one', () => {
  const scale = useScaleKits();

  it('is still read: the pool reserves and settles', async () => {
    const kit = await scale.kit();
    const backend = await kit.backend();
    const pool = backend.newTokenBudget(1_000) as RedisTokenBudget;
    await backend.parts.redis.hset(pool.shared.nodes[0]!.key, 'limit', '1000000000000000000000');
    await (await pool.reserve(10))!.settle(10);
    expect(await pool.reserve(10)).toBeDefined();
  });
});
