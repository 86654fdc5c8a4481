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

  /** Starts at once; `ms` 0 never fires. */
  constructor(
    private readonly ms: number,
    private readonly fire: () => void,
  ) {
    this.restart();
  }

  /** Something arrived: wait `ms` again. */
  restart(): void {
    if (this.ms === 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.fire();
    }, this.ms);
  }

  /** Never fires after this, and leaves no timer behind. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
