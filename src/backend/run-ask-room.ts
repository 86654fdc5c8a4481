/**
 * How many relayed approvals wait in each run of a launcher's tree: every job of a run files
 * its worker's asks in the run's one record, so the bound on them is the run's.
 *
 * @module
 */

/**
 * The most approvals relayed from workers that one run may have waiting at once, all its jobs
 * together. A run asks about one call at a time (its tool calls run one after another), so a
 * job's child asks one, and the children it delegates in-process on its worker one each: a
 * multitask runs 5 at once by default, 25 two levels down. 64 leaves room for larger pools;
 * past it, what asks is more likely a flood (anyone with access to the Redis can publish on a
 * job's approvals channel, and each waiting approval is in the run's record every engine is
 * sent at each change), and is refused.
 */
export const MAX_WAITING_ASKS = 64;

/**
 * The relayed approvals waiting, counted per run (`rootRunId`: the record they are filed in).
 * One per launcher, shared by the channels of all its jobs.
 *
 * @internal
 */
export class RunAskRoom {
  readonly #waiting = new Map<string, number>();

  /** Takes a place in `runId`'s room; false when {@link MAX_WAITING_ASKS} wait there already. */
  take(runId: string): boolean {
    const now = this.#waiting.get(runId) ?? 0;
    if (now >= MAX_WAITING_ASKS) return false;
    this.#waiting.set(runId, now + 1);
    return true;
  }

  /** Gives back a place {@link RunAskRoom.take} gave (the run's count is dropped at 0: no entry per run ever seen). */
  release(runId: string): void {
    const now = this.#waiting.get(runId) ?? 0;
    if (now <= 1) this.#waiting.delete(runId);
    else this.#waiting.set(runId, now - 1);
  }
}
