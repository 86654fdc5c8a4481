import type { Redis } from 'ioredis';

/** How long a cancel is tried again: as long as its mark lives (see `RemoteLauncher`). */
export const CANCEL_MARK_MS = 10 * 60_000;
/** The wait before trying again when the connection is ready already (it came back before the failure was reported). */
const AGAIN_MS = 1000;

/**
 * The cancels a launcher could not send: Redis was unreachable from its side, maybe not from
 * the worker's, which may still run the job (more model requests, more tool calls for a task
 * its conversation was told failed). Each is sent again once the command connection is
 * ready again, until one goes through, {@link CANCEL_MARK_MS} passed, or the connection is
 * closed for good (the backend closed: nothing is sent then). Nothing here keeps the process
 * alive or makes a close wait: a listener on the connection, or an unreferenced timer.
 *
 * @internal
 */
export class UnsentCancels {
  /** Each job's id, and when its cancel first failed. */
  readonly #unsent = new Map<string, number>();
  #waiting = false;

  constructor(
    private readonly redis: Redis,
    /** Sends a cancel again; it calls `sent` or `failed` as it goes. */
    private readonly send: (logId: string) => void,
  ) {}

  /** A cancel that failed: sent again once Redis is back. */
  failed(logId: string): void {
    if (this.redis.status === 'end') return void this.#unsent.delete(logId);
    if (!this.#unsent.has(logId)) this.#unsent.set(logId, Date.now());
    if (this.#waiting) return;
    this.#waiting = true;
    const again = (): void => {
      this.#waiting = false;
      const now = Date.now();
      for (const [id, since] of [...this.#unsent]) {
        if (now - since > CANCEL_MARK_MS) this.#unsent.delete(id);
        else this.send(id);
      }
    };
    if (this.redis.status === 'ready') setTimeout(again, AGAIN_MS).unref();
    else this.redis.once('ready', again);
  }

  /** A cancel that went through. */
  sent(logId: string): void {
    this.#unsent.delete(logId);
  }
}
