/**
 * The most tokens a run and everything it delegates may use together (`tokenBudget`): one
 * pool per tree, which every child, background task and worker of the tree holds by
 * reference. A child's budget is its own limit within its parent's: what a child uses is
 * charged to it and to every budget above it.
 *
 * Every model request first reserves an estimate of what it will cost, and starts only if
 * something is left once the requests in flight are counted; when it ends, the reservation is
 * replaced by what the server reported. So a tree never spends more than its budget plus the
 * cost of the requests that were in flight when the last one was let through: at most one
 * request per agent running at that moment.
 *
 * In one process the pool is counted in memory; with a Redis backend, in Redis, atomically,
 * so workers draw from the same pool. The counts read here are the last known ones.
 */
export interface TokenBudget {
  /** This budget's own limit (`Infinity` for a child that only shares its parent's). */
  readonly limit: number;
  /** Tokens charged to this budget: its run's and its children's (last known). */
  readonly used: number;
  /** What may still be used: the least of this budget's remainder and every budget's above it. */
  remaining(): number;
  /** What is left for a new request: {@link remaining} less what requests in flight have reserved. */
  available(): number;
  /** True once nothing is left for a new request, here or above. */
  spent(): boolean;
  /** The limit that binds now (this one, or the tightest above it) and what it has used. */
  binding(): {
    /** The binding budget's limit, in tokens. */
    readonly limit: number;
    /** What it has used, in tokens. */
    readonly used: number;
  };
  /**
   * Reserves tokens for one model request: `estimate` (what this agent's last request cost;
   * absent: what the pool's last request cost, else 1). Answers undefined, reserving nothing,
   * when nothing is left for a new request here or above.
   *
   * @internal
   */
  reserve(estimate: number | undefined): BudgetReservation | undefined | Promise<BudgetReservation | undefined>;
  /**
   * A child's budget: at most `limit` of its own, within this one's remainder, in the same pool.
   *
   * @internal
   */
  child(limit?: number): TokenBudget;
  /**
   * How another process finds this budget's pool (a Redis-counted budget); absent for one
   * counted in this process's memory.
   *
   * @internal
   */
  readonly shared?: SharedBudget;
}

/**
 * Tokens held for one model request until it ends.
 *
 * @internal
 */
export interface BudgetReservation {
  /** Tokens reserved. */
  readonly tokens: number;
  /** True when the reservation takes what is left: the request is the run's last (made without tools). */
  readonly last: boolean;
  /**
   * Replaces the reservation with what the request really used (for a request that failed
   * once its reply had begun, an estimate: its usage never comes; 0 for one cancelled, or
   * refused before its reply began). Only the first call counts. Answers the binding budget's
   * state afterwards.
   */
  settle(used: number): BudgetState | Promise<BudgetState>;
}

/**
 * A budget's state after a request settled: the binding limit, what it has used, and what is
 * left (never below 0).
 *
 * @internal
 */
export interface BudgetState {
  readonly limit: number;
  readonly used: number;
  readonly remaining: number;
}

/**
 * A budget counted in Redis, as data: its chain of pool nodes (its own first, the root last;
 * a budget without a limit of its own has no node), and what it had left when sent. A node
 * with `countedAt` is one its sender had counted in, last found in Redis then (ms since the
 * epoch): a worker refuses it once gone, within the pool's expiry of that time, instead of
 * making it afresh with nothing used.
 *
 * @internal
 */
export interface SharedBudget {
  readonly nodes: readonly { readonly key: string; readonly limit: number; readonly countedAt?: number }[];
  readonly remaining: number;
}
