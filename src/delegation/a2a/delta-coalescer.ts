import type { ReasonDeltaEvent } from '../../events/agent-event.js';

/** Deltas are forwarded at most once per this many milliseconds (after the first, at once). */
export const FORWARD_INTERVAL_MS = 100;

/**
 * Bounds what a remote A2A task forwards into the parent's stream, however fast it sends: a
 * delta that comes when nothing was forwarded for {@link FORWARD_INTERVAL_MS} goes at once;
 * the others wait for the end of that interval, in their order of arrival, each merged only
 * with the one waiting just before it when both are of the same kind. Answer text (`text`)
 * is merged whole, never dropped; progress (`thinking`, the remote's status messages) keeps
 * only the latest message of such a run, as a progress display would: a remote sending
 * 10,000 status updates a second yields ten events a second, each the size of one message.
 * Its timer runs only while deltas come, and {@link close} stops it. The A2A server uses it
 * too, for the answer chunks it sends its clients (`protocols/a2a/run-executor.ts`).
 */
export class DeltaCoalescer {
  // In arrival order; no two neighbours of the same kind (they are merged as they come).
  #waiting: ReasonDeltaEvent[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly emit: (event: ReasonDeltaEvent) => void,
    private readonly intervalMs = FORWARD_INTERVAL_MS,
  ) {}

  /** Takes one delta: forwarded now, or merged into the next forwarding. */
  add(delta: ReasonDeltaEvent): void {
    const last = this.#waiting.at(-1);
    if (last?.kind !== delta.kind) this.#waiting.push(delta);
    else this.#waiting[this.#waiting.length - 1] = delta.kind === 'thinking' ? delta : { ...last, text: last.text + delta.text };
    if (this.#timer !== undefined) return;
    this.flush();
    this.#timer = setTimeout(this.#tick, this.intervalMs);
  }

  /** Forwards whatever waits, in its order of arrival. */
  flush(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const delta of waiting) this.emit(delta);
  }

  /** Stops the timer; what still waits is dropped (call {@link flush} first to keep it). */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#waiting = [];
  }

  // The interval ended: forward what came during it, and keep throttling only if something did.
  readonly #tick = (): void => {
    this.#timer = undefined;
    if (this.#waiting.length === 0) return;
    this.flush();
    this.#timer = setTimeout(this.#tick, this.intervalMs);
  };
}
