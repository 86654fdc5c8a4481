import type { BudgetReservation, BudgetState, TokenBudget } from './token-budget.js';

/**
 * A {@link TokenBudget} counted in this process's memory: the pool of a tree whose agents all
 * run here. Synchronous, so a run on synchronous parts stays synchronous.
 *
 * @example
 * ```ts
 * const tree = new MemoryTokenBudget(10_000);
 * const child = tree.child(4_000);
 * const request = child.reserve(undefined)!; // 1 token held until it settles
 * request.settle(3_000);
 * tree.remaining(); // 7000
 * child.remaining(); // 1000
 * ```
 *
 * @internal
 */
export class MemoryTokenBudget implements TokenBudget {
  #used = 0;
  #reserved = 0;
  /** What the last request settled in this pool cost (kept at the root): the estimate of a first request. */
  #lastRequest: number | undefined;

  constructor(
    readonly limit: number,
    private readonly parent?: MemoryTokenBudget,
  ) {}

  get used(): number {
    return this.#used;
  }

  remaining(): number {
    const own = this.limit - this.#used;
    return this.parent ? Math.min(own, this.parent.remaining()) : own;
  }

  available(): number {
    const own = this.limit - this.#used - this.#reserved;
    return this.parent ? Math.min(own, this.parent.available()) : own;
  }

  spent(): boolean {
    return this.available() <= 0;
  }

  binding(): { readonly limit: number; readonly used: number } {
    if (!this.parent) return this;
    const above = this.parent.binding();
    return above.limit - above.used < this.limit - this.#used ? above : this;
  }

  reserve(estimate: number | undefined): BudgetReservation | undefined {
    // Refused unless something is left once every request in flight is counted: so at most the
    // requests in flight at the last admission overshoot, one per running agent.
    if (this.available() <= 0) return undefined;
    const root = this.#root();
    const tokens = Math.max(1, Math.ceil(estimate ?? root.#lastRequest ?? 1));
    this.#add(tokens, 0);
    let open = true;
    return {
      tokens,
      last: this.available() <= 0,
      settle: (used) => {
        if (open) {
          open = false;
          this.#add(-tokens, used);
          if (used > 0) root.#lastRequest = used;
        }
        return this.#state();
      },
    };
  }

  child(limit = Number.POSITIVE_INFINITY): TokenBudget {
    return new MemoryTokenBudget(limit, this);
  }

  #add(reserved: number, used: number): void {
    for (let b: MemoryTokenBudget | undefined = this; b; b = b.parent) {
      b.#reserved += reserved;
      b.#used += used;
    }
  }

  #root(): MemoryTokenBudget {
    return this.parent ? this.parent.#root() : this;
  }

  #state(): BudgetState {
    const { limit, used } = this.binding();
    return { limit, used, remaining: Math.max(0, this.remaining()) };
  }
}
