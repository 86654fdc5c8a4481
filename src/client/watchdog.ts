/**
 * A timer that fires once when it is not restarted within `ms`: what tells a silent
 * connection (a dead peer, a proxy holding it open) from a quiet one (a server's keep-alive
 * comes every 15 s).
 *
 * @example
 * ```ts
 * const watchdog = new Watchdog(45_000, () => controller.abort());
 * for await (const message of messages) watchdog.restart();
 * watchdog.stop();
 * ```
 */
export class Watchdog {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When it was last restarted (`Date.now()`). */
  private last = 0;

  /** Starts at once; `ms` 0 never fires. */
  constructor(
    private readonly ms: number,
    private readonly fire: () => void,
  ) {
    this.restart();
  }

  /**
   * Something arrived: wait `ms` again. Called for every event of a stream, so it only notes
   * the time: the one timer, when it comes due, waits on for what is left (no timer is
   * cleared and set per event).
   */
  restart(): void {
    if (this.ms === 0) return;
    this.last = Date.now();
    if (this.timer === undefined) this.arm(this.ms);
  }

  /** Never fires after this, and leaves no timer behind. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(delay: number): void {
    this.timer = setTimeout(() => {
      const idle = Date.now() - this.last;
      if (idle < 0) this.last = Date.now(); // a clock set back: counted from now
      if (idle < this.ms) return this.arm(idle < 0 ? this.ms : this.ms - idle);
      this.timer = undefined;
      this.fire();
    }, delay);
  }
}
