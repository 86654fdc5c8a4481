/**
 * Who listens for a run's waiting approvals to change, by run: a protocol that shows an
 * approval only once it waits (AG-UI's held approvals) rechecks when told, instead of looking
 * the run up on a timer. A run's listeners are dropped when it ends: it has nothing left to
 * wait for, and a listener never removed would be held for the process's life.
 *
 * @example
 * ```ts
 * const watchers = new ApprovalWatchers();
 * const stop = watchers.watch(runId, () => recheck());
 * watchers.notify(runId); // an approval of runId started or stopped waiting
 * stop();
 * ```
 *
 * @internal
 */
export class ApprovalWatchers {
  readonly #byRun = new Map<string, Set<() => void>>();

  /** Calls `listener` at each change of `runId`'s waiting approvals; returns its removal. */
  watch(runId: string, listener: () => void): () => void {
    let listeners = this.#byRun.get(runId);
    if (listeners === undefined) this.#byRun.set(runId, (listeners = new Set()));
    // A wrapper per call: the same function watched twice is removed once per stop.
    const entry = (): void => listener();
    listeners.add(entry);
    return () => {
      const now = this.#byRun.get(runId);
      if (now?.delete(entry) && now.size === 0) this.#byRun.delete(runId);
    };
  }

  /** Tells `runId`'s listeners its waiting approvals changed. A listener that throws stops no other, nor the change. */
  notify(runId: string): void {
    const listeners = this.#byRun.get(runId);
    if (listeners === undefined) return;
    // Over a copy: a listener may stop itself (or another) as it hears.
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch {
        // The change is made (an approval waits, or was decided); a listener's failure is its own.
      }
    }
  }

  /** Drops `runId`'s listeners (it ended). */
  drop(runId: string): void {
    this.#byRun.delete(runId);
  }

  /** How many listeners `runId` has (what a test of their removal reads). */
  count(runId: string): number {
    return this.#byRun.get(runId)?.size ?? 0;
  }
}
