/**
 * The order a run's writer gives its log, which a reader holds every event entry to.
 *
 * @module
 */
import type { AgentEvent } from '../events/agent-event.js';

/**
 * How far past the last seq an event may jump. Writers number events consecutively from 1
 * (`run-registry.ts`, `worker-job.ts`) but never retry a failed `XADD` (a Redis blip fails it
 * after one retry): the events it held are lost, a gap in the seqs. A few seconds of outage
 * while a reply streams is hundreds of events, so a gap up to this many is the writer's; a
 * larger jump is not, and a forged entry this far ahead costs at most this many real events.
 *
 * @internal
 */
export const MAX_SEQ_GAP = 1000;

/**
 * Checks the event entries of one log in the order they are read: each seq comes after the
 * last taken, by at most {@link MAX_SEQ_GAP}; only the first `RunStart` is the run's; nothing
 * comes after the run's `RunEnd` (its terminal event, the last the writer writes). An entry
 * that fails is skipped, and leaves the position as it was, so the writer's next entry still
 * fits: anyone with access to the Redis can write into a stream. A writer gap past the bound
 * therefore refuses every later entry, the `RunEnd` too: {@link LogOrder.lostEnd} says so at
 * the log's end, so its reader fails rather than ending as if the run's log were whole. (A
 * writer cannot mark its own gap: anyone can write the mark too, and with it move the position
 * past every real event to come, the real `RunEnd` included, which the bound forbids.)
 *
 * @internal
 */
export class LogOrder {
  /** The seq of the last event taken (delivered, or passed over up to a reader's `after`). */
  #seq = 0;
  #startSeq: number | undefined;
  #endSeq: number | undefined;
  /** The seq of the first entry refused for jumping too far since the last taken, if any. */
  #jumpedTo: number | undefined;

  /** Why the event entry at `seq` is not the log's next (its problem, for a warning), or undefined: taken. */
  take(seq: number, event: AgentEvent): string | undefined {
    const problem = this.#problem(seq, event);
    if (problem !== undefined) {
      if (this.#endSeq === undefined && seq - this.#seq > MAX_SEQ_GAP) this.#jumpedTo ??= seq;
      return problem;
    }
    this.#jumpedTo = undefined;
    this.#seq = seq;
    if (event.type === 'RunStart') this.#startSeq = seq;
    if (event.type === 'RunEnd') this.#endSeq = seq;
    return undefined;
  }

  /**
   * Why the log, at its end, may have lost the run's end: entries after the last taken were
   * refused for jumping too far (a writer that lost more events than the bound, or a forged
   * entry with nothing of the writer after it), and no `RunEnd` was taken. Undefined when the
   * log was read whole, as far as its order tells.
   */
  lostEnd(): string | undefined {
    if (this.#endSeq !== undefined || this.#jumpedTo === undefined) return undefined;
    return `it jumps from seq ${this.#seq} to seq ${this.#jumpedTo}, more than ${MAX_SEQ_GAP} past the one before: every event from there on was skipped (its writer lost more events than a reader bridges, its appends failing for a while, or they were forged), and the run's end may be among them`;
  }

  #problem(seq: number, event: AgentEvent): string | undefined {
    if (this.#endSeq !== undefined) return `its event (seq ${seq}, ${event.type}) comes after the run's RunEnd (seq ${this.#endSeq})`;
    if (seq === this.#seq) return `its seq ${seq} repeats the one before`;
    if (seq < this.#seq) return `its seq ${seq} goes back (seq ${this.#seq} came before)`;
    if (seq - this.#seq > MAX_SEQ_GAP) return `its seq ${seq} jumps more than ${MAX_SEQ_GAP} past the one before (seq ${this.#seq})`;
    if (event.type === 'RunStart' && this.#startSeq !== undefined) return `it is a second RunStart (seq ${seq}; the run's came at seq ${this.#startSeq})`;
    return undefined;
  }
}
