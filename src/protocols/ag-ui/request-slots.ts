import { HttpFailure } from '../../http/http-failure.js';
import type { RunSlots } from '../../http/run-slots.js';

/** The slot an AG-UI or A2A request holds from before its body is read. */
export interface RequestSlot {
  /** Whether it is one of `maxRuns`' slots (a new run may keep it), or one lent while runs wait for their clients, or a spare one. */
  readonly forRun: boolean;
  /** Gives the slot back (idempotent). */
  readonly release: () => void;
}

/**
 * The slots of AG-UI and A2A requests whose bodies are on their way. A body holds memory (up
 * to `maxBodyBytes`, for up to `bodyTimeoutMs`), so a request takes one of `maxRuns`' slots
 * before it is read, as `runsHandler`'s and `chatHandler`'s do, and one more is refused
 * (`429`). But runs that wait for their clients hold their slots meanwhile, and the request
 * that answers one needs none: when every slot is taken, a request is still read on a slot
 * lent for it, as many at once as runs wait. Given `spare` slots too (`maxControlRequests`),
 * a request finding neither is read on one of those: runs of other handlers sharing
 * `maxRuns` then never keep a request that needs no run (A2A's `tasks/get`, the answer an
 * AG-UI run waits for while bodies on their way hold the lent slots) from being read.
 */
export class RequestSlots {
  #lent = 0;

  /**
   * @param slots The handler's `maxRuns`.
   * @param waiting How many runs wait for their clients now.
   * @param spare Slots of the handler's own for requests read when `slots` are all taken; none when absent.
   */
  constructor(
    private readonly slots: RunSlots,
    private readonly waiting: () => number,
    private readonly spare?: RunSlots,
  ) {}

  /** A slot for a request about to be read. @throws HttpFailure `429` (with `Retry-After`) when none is free, none may be lent and no spare one is free. */
  take(): RequestSlot {
    try {
      return { forRun: true, release: this.slots.take() };
    } catch (full) {
      if (this.#lent < this.waiting()) return this.#lend();
      if (this.spare === undefined || !(full instanceof HttpFailure)) throw full;
      try {
        return { forRun: false, release: this.spare.take() };
      } catch (spareFull) {
        if (!(spareFull instanceof HttpFailure)) throw spareFull;
        // Both bounds matter to the client: a message needs a run slot, any other request a spare one.
        throw new HttpFailure(429, `${full.message}; and ${spareFull.message}`, spareFull.headers);
      }
    }
  }

  /** The slot a new run of the request keeps: its own if it is one of `maxRuns`', else one taken now. @throws HttpFailure `429` */
  forRun(slot: RequestSlot): () => void {
    if (slot.forRun) return slot.release;
    slot.release();
    return this.slots.take();
  }

  #lend(): RequestSlot {
    this.#lent += 1;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.#lent -= 1;
    };
    return { forRun: false, release };
  }
}
