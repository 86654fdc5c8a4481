import type { RunSlots } from '../../http/run-slots.js';

/** The slot an AG-UI request holds from before its body is read. */
export interface RequestSlot {
  /** Whether it is one of `maxRuns`' slots (a new run may keep it), or one lent while runs wait for their clients. */
  readonly forRun: boolean;
  /** Gives the slot back (idempotent). */
  readonly release: () => void;
}

/**
 * The slots of AG-UI requests whose bodies are on their way. A body holds memory (up to
 * `maxBodyBytes`, for up to `bodyTimeoutMs`), so a request takes one of `maxRuns`' slots
 * before it is read, as `runsHandler`'s and `chatHandler`'s do, and one more is refused
 * (`429`). But runs that wait for their clients hold their slots meanwhile, and the request
 * that answers one needs none: when every slot is taken, a request is still read on a slot
 * lent for it, as many at once as runs wait.
 */
export class RequestSlots {
  #lent = 0;

  /**
   * @param slots The handler's `maxRuns`.
   * @param waiting How many runs wait for their clients now.
   */
  constructor(
    private readonly slots: RunSlots,
    private readonly waiting: () => number,
  ) {}

  /** A slot for a request about to be read. @throws HttpFailure `429` (with `Retry-After`) when none is free and none may be lent. */
  take(): RequestSlot {
    try {
      return { forRun: true, release: this.slots.take() };
    } catch (full) {
      if (this.#lent >= this.waiting()) throw full;
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

  /** The slot a new run of the request keeps: its own if it is one of `maxRuns`', else one taken now. @throws HttpFailure `429` */
  forRun(slot: RequestSlot): () => void {
    if (slot.forRun) return slot.release;
    slot.release();
    return this.slots.take();
  }
}
