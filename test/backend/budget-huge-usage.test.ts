/**
 * A model server's usage is taken as it reports it (any finite count), and a pool in Redis
 * counts in Redis integers: a count past what those hold ("1e+21" is no integer to Redis,
 * and over 2^63 overflows) failed the script, so the run failed with a Redis error instead
 * of ending on its budget, and its reservation stayed held in the pool for a day.
 */
import { describe, expect, it } from 'vitest';
import { HAS_REDIS } from './redis-server.js';
import { eventsOf, useScaleKits } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('a model server reporting an absurd token count, with the budget in Redis', () => {
  const scale = useScaleKits();

  it('ends the run on its budget, as a pool in memory does', async () => {
    const kit = await scale.kit();
    kit.fixture.route({ main: () => ({ toolCalls: [{ name: 'todo', arguments: { todos: [] } }], usage: { prompt_tokens: 1, completion_tokens: 1e21, total_tokens: 1e21 } }) });
    const engine = await kit.engine({ tokenBudget: 1_000 });
    const events = await eventsOf(engine.stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringMatching(/^the token budget is spent: \d+ of 1000 tokens used/) });
    expect(events.filter((e) => e.type === 'Budget')).toEqual([expect.objectContaining({ limit: 1_000, remaining: 0 })]);
  });

  it('a reservation estimated from such a count, and its settling, are counted, not refused by Redis', async () => {
    const kit = await scale.kit();
    const pool = (await kit.backend()).newTokenBudget(1_000);
    const reservation = await pool.reserve(2 ** 70);
    expect(reservation).toMatchObject({ last: true });
    expect(await reservation!.settle(2 ** 70)).toMatchObject({ limit: 1_000, remaining: 0 });
    expect(await pool.reserve(1)).toBeUndefined();
  });
});
