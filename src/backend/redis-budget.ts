import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { BudgetReservation, BudgetState, SharedBudget, TokenBudget } from '../model/token-budget.js';
import type { RedisKeys } from './redis-keys.js';
import { RemoteTaskError } from './remote-task-error.js';

/** How long a pool's counts outlive its last request: a day (a run that pauses longer starts a fresh count). */
const POOL_TTL_MS = 24 * 60 * 60_000;

/**
 * Reserves for one request on every node of a chain (own first, root last), atomically: only
 * if each still has something left once what is in flight is counted. KEYS: the chain;
 * ARGV: the estimate (0: the pool's last request, else 1), the expiry, then each node's limit.
 * Answers { tokens reserved (0: refused), least left after, binding limit, its used, least remaining }.
 */
const RESERVE = `
local n = #KEYS
local avail, bl, bu, rem
for i = 1, n do
  redis.call('HSETNX', KEYS[i], 'limit', ARGV[i + 2])
  local h = redis.call('HMGET', KEYS[i], 'limit', 'used', 'reserved')
  local limit, used = tonumber(h[1]), tonumber(h[2] or '0')
  local a = limit - used - tonumber(h[3] or '0')
  if avail == nil or a < avail then avail = a end
  if rem == nil or limit - used < rem then rem, bl, bu = limit - used, limit, used end
end
if avail <= 0 then return {0, avail, bl, bu, rem} end
local tokens = tonumber(ARGV[1])
if tokens <= 0 then tokens = tonumber(redis.call('HGET', KEYS[n], 'last') or '1') end
if tokens < 1 then tokens = 1 end
for i = 1, n do
  redis.call('HINCRBY', KEYS[i], 'reserved', tokens)
  redis.call('PEXPIRE', KEYS[i], ARGV[2])
end
return {tokens, avail - tokens, bl, bu, rem}`;

/**
 * Replaces a reservation with what the request used, on every node of the chain. KEYS: the
 * chain; ARGV: tokens reserved, tokens used, the expiry. Answers { binding limit, its used,
 * least remaining, least left for a new request }.
 */
const SETTLE = `
local n = #KEYS
local bl, bu, rem, avail
for i = 1, n do
  redis.call('HINCRBY', KEYS[i], 'reserved', -tonumber(ARGV[1]))
  local used = redis.call('HINCRBY', KEYS[i], 'used', ARGV[2])
  local h = redis.call('HMGET', KEYS[i], 'limit', 'reserved')
  local limit = tonumber(h[1] or '0')
  local a = limit - used - tonumber(h[2] or '0')
  if avail == nil or a < avail then avail = a end
  if rem == nil or limit - used < rem then rem, bl, bu = limit - used, limit, used end
  redis.call('PEXPIRE', KEYS[i], ARGV[3])
end
if tonumber(ARGV[2]) > 0 then redis.call('HSET', KEYS[n], 'last', ARGV[2]) end
return {bl, bu, rem, avail}`;

/** The last known counts of a chain. */
interface Known {
  limit: number;
  used: number;
  remaining: number;
  available: number;
}

/**
 * A {@link TokenBudget} counted in Redis: a hash per budget with a limit of its own
 * (`<prefix>:budget:<id>`: limit, used, reserved; the root's also `last`, what the pool's last
 * request cost), changed only by Lua scripts over the whole chain, so engines and workers in
 * any process draw from one pool and never both take its last tokens. The counts read
 * synchronously are those of this process's last answer from Redis.
 *
 * @internal
 */
export class RedisTokenBudget implements TokenBudget {
  #known: Known;

  private constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    readonly limit: number,
    private readonly nodes: SharedBudget['nodes'],
    known: Known,
  ) {
    this.#known = known;
  }

  /** The chain, and what was left at the last answer from Redis. */
  get shared(): SharedBudget {
    return { nodes: this.nodes, remaining: this.#known.remaining };
  }

  /** A new pool (the root of a tree) of `limit` tokens. */
  static root(redis: Redis, keys: RedisKeys, limit: number): RedisTokenBudget {
    const known = { limit, used: 0, remaining: limit, available: limit };
    return new RedisTokenBudget(redis, keys, limit, [{ key: keys.budget(randomUUID()), limit }], known);
  }

  /** A budget another process shares (from a task's spec), counted in the same pool. */
  static attach(redis: Redis, keys: RedisKeys, shared: SharedBudget): RedisTokenBudget {
    const limit = shared.nodes[0]?.limit ?? Number.POSITIVE_INFINITY;
    const known = { limit, used: limit - shared.remaining, remaining: shared.remaining, available: shared.remaining };
    return new RedisTokenBudget(redis, keys, limit, shared.nodes, known);
  }

  get used(): number {
    return this.#known.used;
  }

  remaining(): number {
    return this.#known.remaining;
  }

  available(): number {
    return this.#known.available;
  }

  spent(): boolean {
    return this.#known.available <= 0;
  }

  binding(): { readonly limit: number; readonly used: number } {
    return { limit: this.#known.limit, used: this.#known.used };
  }

  async reserve(estimate: number | undefined): Promise<BudgetReservation | undefined> {
    const { nodes } = this;
    const args = [estimate === undefined ? 0 : Math.max(1, Math.ceil(estimate)), POOL_TTL_MS, ...nodes.map((n) => n.limit)];
    const [tokens, after, limit, used, remaining] = (await this.redis.eval(RESERVE, nodes.length, ...nodes.map((n) => n.key), ...args)) as number[];
    this.#known = { limit: limit!, used: used!, remaining: remaining!, available: after! };
    if (tokens === 0) return undefined;
    let settling: Promise<BudgetState> | undefined;
    return {
      tokens: tokens!,
      last: after! <= 0,
      settle: (spent) => (settling ??= this.#settle(tokens!, spent)),
    };
  }

  child(limit = Number.POSITIVE_INFINITY): TokenBudget {
    const { nodes } = this;
    const known = { ...this.#known };
    // Without a limit of its own a child counts only in its parent's nodes.
    if (!Number.isFinite(limit)) return new RedisTokenBudget(this.redis, this.keys, limit, nodes, known);
    const own = { key: this.keys.budget(randomUUID()), limit };
    if (limit < known.remaining) Object.assign(known, { limit, used: 0, remaining: limit, available: Math.min(limit, known.available) });
    return new RedisTokenBudget(this.redis, this.keys, limit, [own, ...nodes], known);
  }

  async #settle(tokens: number, spent: number): Promise<BudgetState> {
    const { nodes } = this;
    const [limit, used, remaining, available] = (await this.redis.eval(SETTLE, nodes.length, ...nodes.map((n) => n.key), tokens, Math.max(0, Math.ceil(spent)), POOL_TTL_MS)) as number[];
    this.#known = { limit: limit!, used: used!, remaining: remaining!, available: available! };
    return { limit: limit!, used: used!, remaining: Math.max(0, remaining!) };
  }
}

/**
 * A shared budget from a job, checked before its keys reach a script: each node a budget key of
 * this prefix with a positive whole limit, and a number left.
 *
 * @throws RemoteTaskError naming what is wrong.
 */
export function checkedBudget(shared: SharedBudget, keys: RedisKeys): SharedBudget {
  const nodes: unknown = (shared as { nodes?: unknown }).nodes;
  const prefix = keys.budget('');
  const fine =
    Array.isArray(nodes) &&
    nodes.length > 0 &&
    nodes.every((n: { key?: unknown; limit?: unknown }) => typeof n?.key === 'string' && n.key.startsWith(prefix) && Number.isSafeInteger(n.limit) && (n.limit as number) > 0) &&
    typeof shared.remaining === 'number';
  if (!fine) throw new RemoteTaskError(`the task's token budget is malformed (expected nodes of "${prefix}<id>" keys with positive whole limits): refusing to run it without its budget`);
  return shared;
}
