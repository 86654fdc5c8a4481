import { clearImmediate, setImmediate } from 'node:timers';

/**
 * The publishes of runs' records to the engines sharing a backend, batched per run. Each
 * publish sends the whole record, every waiting approval in it, and every engine reads each
 * copy: one per approval that starts or stops waiting made a burst of N approvals N records
 * of up to N approvals each (a flood of forged asks froze the owner for seconds).
 * {@link CoalescedPublishes.soon} sends the record once, at the end of this turn of the event
 * loop, however many changes were made in it; {@link CoalescedPublishes.now} sends it at once
 * (a run's start and end: its final state is never left to a later turn) and drops a batched
 * one, so none is left behind once a run ended. `node:timers`, not the globals: a test's fake
 * timers never hold a record back.
 *
 * @example
 * ```ts
 * const publishes = new CoalescedPublishes((runId) => shared.publish(recordOf(runId)));
 * publishes.soon(runId); // an approval started waiting
 * publishes.soon(runId); // another: still one publish, after this turn
 * publishes.now(runId); // the run ended: sent now, the batched one dropped
 * ```
 *
 * @internal
 */
export class CoalescedPublishes {
  readonly #due = new Map<string, NodeJS.Immediate>();

  /** @param send - Publishes a run's record as it stands when called. */
  constructor(private readonly send: (runId: string) => void) {}

  /** Publishes the run's record after this turn's changes (once, however many). */
  soon(runId: string): void {
    if (this.#due.has(runId)) return;
    this.#due.set(
      runId,
      setImmediate(() => {
        this.#due.delete(runId);
        try {
          this.send(runId);
        } catch {
          // Nothing may throw out of an immediate (it would end the process): a record not
          // sent only leaves the other engines' copy stale until the run's next publish.
        }
      }),
    );
  }

  /** Publishes the run's record now, in place of one batched. */
  now(runId: string): void {
    this.drop(runId);
    this.send(runId);
  }

  /** Drops the run's batched publish, if any (the run is forgotten). */
  drop(runId: string): void {
    const due = this.#due.get(runId);
    if (due === undefined) return;
    clearImmediate(due);
    this.#due.delete(runId);
  }
}
