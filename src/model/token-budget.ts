/**
 * The most tokens a run and everything it delegates may use together (`tokenBudget`). A
 * child's budget is its own limit within its parent's remainder: what a child uses is
 * charged to it and to every budget above it, as it is used, so children running side by
 * side draw on one shared remainder.
 *
 * @example
 * ```ts
 * const tree = new TokenBudget(10_000);
 * const child = tree.child(4_000);
 * child.charge(3_000);
 * tree.remaining(); // 7000
 * child.remaining(); // 1000
 * ```
 */
export class TokenBudget {
  #used = 0;

  constructor(
    /** This budget's own limit (`Infinity` for a child that only shares its parent's). */
    readonly limit: number,
    private readonly parent?: TokenBudget,
  ) {}

  /** Tokens charged to this budget: its run's and its children's. */
  get used(): number {
    return this.#used;
  }

  /** What may still be used: the least of this budget's remainder and every budget's above it. */
  remaining(): number {
    const own = this.limit - this.#used;
    return this.parent ? Math.min(own, this.parent.remaining()) : own;
  }

  /** True once nothing is left here or above. */
  spent(): boolean {
    return this.remaining() <= 0;
  }

  /** The limit that binds now: this one, or the tightest above it. */
  binding(): TokenBudget {
    if (!this.parent) return this;
    const above = this.parent.binding();
    return above.limit - above.used < this.limit - this.#used ? above : this;
  }

  /**
   * Records tokens used, here and in every budget above.
   *
   * @internal
   */
  charge(tokens: number): void {
    this.#used += tokens;
    this.parent?.charge(tokens);
  }

  /**
   * A child's budget: at most `limit` of its own, within this one's remainder.
   *
   * @internal
   */
  child(limit = Number.POSITIVE_INFINITY): TokenBudget {
    return new TokenBudget(limit, this);
  }
}
