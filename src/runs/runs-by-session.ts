/**
 * A registry's runs by the session they belong to, each session's in the order they were
 * added: what forgetting a deleted conversation walks, in proportion to that conversation's
 * runs rather than every run kept. A session with no run left has no entry: the index holds
 * no more keys than there are sessions with runs kept.
 */
export class RunsBySession<T> {
  readonly #sessions = new Map<string, Set<T>>();

  /** The number of sessions with a run indexed. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Indexes `run` under `sessionId`. */
  add(sessionId: string, run: T): void {
    const runs = this.#sessions.get(sessionId);
    if (runs) runs.add(run);
    else this.#sessions.set(sessionId, new Set([run]));
  }

  /** Removes `run` from `sessionId`'s runs, and the session's entry with its last run. */
  remove(sessionId: string, run: T): void {
    const runs = this.#sessions.get(sessionId);
    if (runs?.delete(run) && runs.size === 0) this.#sessions.delete(sessionId);
  }

  /** `sessionId`'s runs, oldest first: a copy, so the caller may remove them while it walks it. */
  of(sessionId: string): T[] {
    return [...(this.#sessions.get(sessionId) ?? [])];
  }
}
