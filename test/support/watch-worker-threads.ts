/**
 * Sees worker threads start and end in this process through `node:async_hooks` (a worker is
 * an async resource of type `WORKER`, destroyed when its thread has exited), so a test can
 * wait for the moment work moved to a thread instead of guessing it with a fixed sleep.
 *
 * @module
 */
import { createHook } from 'node:async_hooks';

/** The first worker thread started while watching, and its end. */
export interface WorkerThreadWatch {
  /** Resolves when the first worker thread is created. */
  readonly started: Promise<void>;
  /** Resolves when that thread has exited (terminated or ended). */
  readonly ended: Promise<void>;
  /** Stops watching (call it in `afterEach` or a `finally`). */
  stop(): void;
}

/** Starts watching for the next worker thread created in this process. */
export function watchWorkerThreads(): WorkerThreadWatch {
  let workerId: number | undefined;
  let markStarted: () => void = () => undefined;
  let markEnded: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const ended = new Promise<void>((resolve) => (markEnded = resolve));
  const hook = createHook({
    init(id, type) {
      if (type !== 'WORKER' || workerId !== undefined) return;
      workerId = id;
      markStarted();
    },
    destroy(id) {
      if (id === workerId) markEnded();
    },
  });
  hook.enable();
  return { started, ended, stop: () => void hook.disable() };
}

/** `promise`, or a rejection saying `what` did not happen within `ms` (a generous bound, not a timing target). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
