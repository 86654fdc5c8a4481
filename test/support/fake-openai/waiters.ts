import { FakeServerWaitError } from './fake-server-wait-error.js';

interface Waiter {
  readonly check: () => boolean;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * Promises that resolve once a condition on the server's state holds. The server calls
 * `notify()` after every change; each wait has a timeout so a test fails with a message
 * instead of hanging.
 */
export class Waiters {
  readonly #pending = new Set<Waiter>();

  /**
   * Resolves when `check()` is true (at once if it already is); rejects with
   * `FakeServerWaitError` after `timeoutMs`, with `describe()` saying what was missing.
   */
  until(check: () => boolean, describe: () => string, timeoutMs: number): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        check,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#pending.delete(waiter);
          reject(new FakeServerWaitError(`${describe()} after ${timeoutMs} ms`));
        }, timeoutMs),
      };
      this.#pending.add(waiter);
    });
  }

  /** Re-checks every pending wait. */
  notify(): void {
    for (const waiter of this.#pending) {
      if (!waiter.check()) continue;
      clearTimeout(waiter.timer);
      this.#pending.delete(waiter);
      waiter.resolve();
    }
  }

  /** Rejects every pending wait (the server is closing) and clears their timers. */
  rejectAll(message: string): void {
    for (const waiter of this.#pending) {
      clearTimeout(waiter.timer);
      waiter.reject(new FakeServerWaitError(message));
    }
    this.#pending.clear();
  }
}
