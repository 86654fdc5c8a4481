import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { BudgetReservation, BudgetState, SharedBudget, TokenBudget } from '../model/token-budget.js';
import { budgetAnswer, RELEASE_HELD, RESERVE, SETTLE } from './redis-budget-scripts.js';
import type { RedisKeys } from './redis-keys.js';
import { RemoteTaskError } from './remote-task-error.js';

/** How long a pool's counts outlive its last request: a day (a run that pauses longer starts a fresh count). */
const POOL_TTL_MS = 24 * 60 * 60_000;

/** The last known counts of a chain. */
interface Known {
  limit: number;
  used: number;
  remaining: number;
  available: number;
}

/**
 * When this process last had a script find or make each budget of a tree (`performance.now()`,
 * taken as the script was sent, so never later than Redis renewed its expiry): shared by the
 * tree's budgets here, so a reservation tells a budget it counted in, which must still be
 * there, from one nobody here made yet. A worker's starts with the nodes its job's sender
 * counted in, found when the sender last found them (see `attach`). One found longer ago than its expiry may be made afresh (a run
 * that paused a day starts a fresh count).
 */
type Found = Map<string, number>;

/**
 * A {@link TokenBudget} counted in Redis: a hash per budget with a limit of its own
 * (`<prefix>:budget:<id>`: limit, used, reserved; the root's also `last`, what the pool's last
 * request cost), changed only by Lua scripts over the whole chain, so engines and workers in
 * any process draw from one pool and never both take its last tokens. On a worker, each
 * reservation is also held under its job until it settles, for the engine to give back if
 * the worker dies mid-request (see redis-budget-scripts.ts). The counts read synchronously
 * are those of this process's last answer from Redis. A budget counted in (here, or by the
 * engine that sent a worker its job) that is then gone from Redis (a restart without
 * persistence, an eviction) fails the run with a `RedisBackendError` instead of being
 * counted again from 0.
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
    private readonly found: Found,
    /** The hash its reservations are held in (a worker's job's), if any. */
    private readonly held?: string,
  ) {
    this.#known = known;
  }

  /**
   * The chain, each node this process counted in with when it last found it (`countedAt`, on
   * the wall clock: the job may wait in the queue and run on another machine; see
   * {@link attach}), and what was left at the last answer from Redis.
   */
  get shared(): SharedBudget {
    const now = performance.now();
    const wall = Date.now();
    const nodes = this.nodes.map(({ key, limit }) => {
      const ago = now - (this.found.get(key) ?? -Infinity);
      return ago < POOL_TTL_MS ? { key, limit, countedAt: Math.round(wall - ago) } : { key, limit };
    });
    return { nodes, remaining: this.#known.remaining };
  }

  /** A new pool (the root of a tree) of `limit` tokens (at most `Number.MAX_SAFE_INTEGER`: see `tokenCount`). */
  static root(redis: Redis, keys: RedisKeys, given: number): RedisTokenBudget {
    const limit = tokenCount(given);
    const known = { limit, used: 0, remaining: limit, available: limit };
    return new RedisTokenBudget(redis, keys, limit, [{ key: keys.budget(randomUUID()), limit }], known, new Map());
  }

  /**
   * A budget another process shares (from a task's spec), counted in the same pool; with
   * `held` (a worker passes its job's {@link RedisKeys.budgetHeld}), its reservations and
   * its children's are held there until they settle. The nodes its sender counted in must
   * still be there: one evicted while the job was queued is refused as gone, not made afresh
   * with nothing used (the tree would spend its budget twice). Each counts as found when its
   * sender last found it (`countedAt`, the time in the queue included), as it would there:
   * once that is longer ago than the pool's expiry, the worker starts a fresh count as its
   * sender would (a run that paused a day). A time ahead of this machine's clock counts as
   * now (refused once gone: the safe side); one that is no finite number as never found.
   */
  static attach(redis: Redis, keys: RedisKeys, shared: SharedBudget, held?: string): RedisTokenBudget {
    const limit = shared.nodes[0]?.limit ?? Number.POSITIVE_INFINITY;
    const known = { limit, used: limit - shared.remaining, remaining: shared.remaining, available: shared.remaining };
    const now = performance.now();
    const wall = Date.now();
    const found: Found = new Map();
    for (const { key, countedAt } of shared.nodes) if (Number.isFinite(countedAt)) found.set(key, now - Math.max(0, wall - countedAt!));
    return new RedisTokenBudget(redis, keys, limit, shared.nodes, known, found, held);
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
    const id = this.held ? randomUUID() : '';
    const asked = performance.now();
    const counted = nodes.map((n) => (this.#counted(n.key, asked) ? 1 : 0));
    const args = [estimate === undefined ? 0 : Math.max(1, tokenCount(estimate)), POOL_TTL_MS, id, ...nodes.map((n) => n.limit), ...counted];
    const [tokens, after, limit, used, remaining] = budgetAnswer(await this.redis.eval(RESERVE, ...this.#keys(), ...args));
    this.#known = { limit: limit!, used: used!, remaining: remaining!, available: after! };
    // A refused reservation renews no expiry: what it found is not counted as found then.
    if (tokens === 0) return undefined;
    this.#foundAll(asked);
    let settling: Promise<BudgetState> | undefined;
    return {
      tokens: tokens!,
      last: after! <= 0,
      settle: (spent) => (settling ??= this.#settle(tokens!, spent, id)),
    };
  }

  child(given = Number.POSITIVE_INFINITY): TokenBudget {
    const { nodes } = this;
    const known = { ...this.#known };
    // Without a limit of its own a child counts only in its parent's nodes.
    if (!Number.isFinite(given)) return new RedisTokenBudget(this.redis, this.keys, given, nodes, known, this.found, this.held);
    const limit = tokenCount(given);
    const own = { key: this.keys.budget(randomUUID()), limit };
    if (limit < known.remaining) Object.assign(known, { limit, used: 0, remaining: limit, available: Math.min(limit, known.available) });
    return new RedisTokenBudget(this.redis, this.keys, limit, [own, ...nodes], known, this.found, this.held);
  }

  /** Whether a script found (or made) the budget at `key` less than its expiry before `now`: it must still be there. */
  #counted(key: string, now: number): boolean {
    return now - (this.found.get(key) ?? -Infinity) < POOL_TTL_MS;
  }

  /** Notes that a script sent at `asked` found (or made) every budget of the chain, and renewed its expiry. */
  #foundAll(asked: number): void {
    for (const { key } of this.nodes) this.found.set(key, asked);
  }

  /** The scripts' key count and KEYS: the chain, then the hash reservations are held in, if any. */
  #keys(): [number, ...string[]] {
    const keys = [...this.nodes.map((n) => n.key), ...(this.held ? [this.held] : [])];
    return [keys.length, ...keys];
  }

  async #settle(tokens: number, spent: number, id: string): Promise<BudgetState> {
    const asked = performance.now();
    const [limit, used, remaining, available] = budgetAnswer(await this.redis.eval(SETTLE, ...this.#keys(), tokens, tokenCount(spent), POOL_TTL_MS, id));
    this.#known = { limit: limit!, used: used!, remaining: remaining!, available: available! };
    this.#foundAll(asked);
    return { limit: limit!, used: used!, remaining: Math.max(0, remaining!) };
  }
}

/**
 * A count of tokens as the scripts take it: whole, and at most `Number.MAX_SAFE_INTEGER`. A
 * server's usage is any finite number it reports, but Redis counts in 64-bit integers and
 * reads `1e+21` as none: the script would fail, and the run with it, instead of ending on its
 * budget (a count that large spends any budget all the same). A limit is kept so too: the
 * scripts count in doubles and answer in 64-bit integers, so a limit of 1e21 came back as
 * -2^63 (nothing left), and a worker refuses a limit that is not a safe integer.
 */
function tokenCount(tokens: number): number {
  return Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, Math.ceil(tokens)));
}

/**
 * Gives back every reservation a job's worker still holds (it died mid-request, so they
 * would never settle), before its task is failed: the parent and the task's siblings can
 * spend them again. Answers how many there were.
 *
 * @internal
 */
export async function releaseHeldBudget(redis: Redis, keys: RedisKeys, jobId: string): Promise<number> {
  return (await redis.eval(RELEASE_HELD, 1, keys.budgetHeld(jobId), keys.budget(''))) as number;
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
