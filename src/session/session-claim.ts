/**
 * What {@link SessionStore.claim} answers: the session is the caller's until it releases
 * it, or another owner holds it.
 *
 * @example
 * ```ts
 * const claim = await store.claim('ses_1', runId);
 * if (!claim.granted) throw new Error(`busy: ${claim.owner}`);
 * try { ... } finally { claim.release(); }
 * ```
 */
export type SessionClaim = ClaimGranted | ClaimRefused;

/** The session is the caller's until {@link ClaimGranted.release} (a store with leases renews it meanwhile). */
export interface ClaimGranted {
  /** Always true. */
  readonly granted: true;
  /** Gives the session up (and stops renewing a lease). Releasing twice is harmless. */
  release(): void;
}

/** Another owner holds the session. */
export interface ClaimRefused {
  /** Always false. */
  readonly granted: false;
  /** Who holds it: the `owner` its claim was made with (the engine uses run ids). */
  readonly owner: string;
}

/**
 * Claims kept in this process (a `Map` of session id to owner): the memory store's
 * {@link SessionStore.claim}, and the file store's first check, before its lock file. A
 * process that dies takes its claims with it.
 *
 * @example
 * ```ts
 * const claims = new LocalClaims();
 * const first = claims.claim('s', 'run_1'); // granted
 * claims.claim('s', 'run_2'); // { granted: false, owner: 'run_1' }
 * if (first.granted) first.release();
 * ```
 */
export class LocalClaims {
  readonly #owners = new Map<string, string>();

  /** `released` is told of each session given up (the memory store then keeps to its bounds again). */
  constructor(private readonly released?: (sessionId: string) => void) {}

  /** Whether a run holds `sessionId` now. */
  has(sessionId: string): boolean {
    return this.#owners.has(sessionId);
  }

  /** Claims `sessionId` for `owner`, or says who holds it. */
  claim(sessionId: string, owner: string): SessionClaim {
    const holder = this.#owners.get(sessionId);
    if (holder !== undefined) return { granted: false, owner: holder };
    this.#owners.set(sessionId, owner);
    const owners = this.#owners;
    const released = this.released;
    return {
      granted: true,
      release(): void {
        if (owners.get(sessionId) !== owner) return;
        owners.delete(sessionId);
        released?.(sessionId);
      },
    };
  }
}
