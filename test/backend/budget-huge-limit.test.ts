/**
 * A pool's limit is any integer `tokenBudget` takes (`Number.isInteger(1e21)` is true).
 * ioredis writes it in digits (so the corrupt-budget check takes it), but the scripts count
 * in doubles and answer in 64-bit integers: a limit past 2^63 came back as -2^63, so the
 * pool said it had nothing left after its first request, and a worker refused its budget as
 * malformed (`checkedBudget` takes safe integers only). A limit is now kept at most
 * `Number.MAX_SAFE_INTEGER` (a pool that large is never spent all the same).
 */
import { describe, expect, it } from 'vitest';
import { checkedBudget, type RedisTokenBudget } from '../../src/backend/redis-budget.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('a token budget beyond 2^53 in Redis', () => {
  const scale = useScaleKits();

  it.each([1e21, 2 ** 64])('a pool of %d tokens says what is left, and hands a worker a budget it takes', async (limit) => {
    const kit = await scale.kit();
    const backend = await kit.backend();
    const pool = backend.newTokenBudget(limit) as RedisTokenBudget;
    const state = await (await pool.reserve(10))!.settle(10);
    const nearlyAll = Number.MAX_SAFE_INTEGER - 100;
    expect(state.remaining).toBeGreaterThan(nearlyAll);
    expect(pool.available()).toBeGreaterThan(nearlyAll);
    const child = pool.child(limit) as RedisTokenBudget;
    expect((await (await child.reserve(10))!.settle(1)).remaining).toBeGreaterThan(nearlyAll);
    expect(await child.reserve(10)).toBeDefined();
    expect(() => checkedBudget(child.shared, backend.parts.keys)).not.toThrow();
  });
});
