import type { Observable, Subscription } from 'rxjs';
import type { AgentEvent } from '../events/index.js';
import { BufferOverflowError } from './buffer-overflow-error.js';
import { checkSource } from './check-source.js';

/** Options of {@link toAsyncIterable}. */
export interface AsyncIterableOptions {
  /** How many unread events may wait before the iteration fails (default 10 000). */
  readonly bufferSize?: number;
}

const DEFAULT_BUFFER_SIZE = 10_000;

interface Waiter<T> {
  resolve(result: IteratorResult<T, undefined>): void;
  reject(error: unknown): void;
}

/**
 * Reads a run with `for await` (a sink without a target: the stream first, then options;
 * anything but an Observable is a `TypeError`). The run starts on the first `next()`;
 * events wait in a bounded buffer until read. Leaving the loop (`break`, `return`, a thrown
 * error) unsubscribes, which aborts the run. The run's error is thrown from `next()` after the events before it.
 * If more than `bufferSize` events wait unread, the run is unsubscribed, the waiting events
 * are dropped and `next()` throws a {@link BufferOverflowError}.
 *
 * @example
 * ```ts
 * for await (const event of toAsyncIterable(engine.stream('List the TODOs'))) {
 *   if (event.type === 'RunEnd') console.log(event.text);
 * }
 * ```
 */
export function toAsyncIterable<T = AgentEvent>(
  events$: Observable<T>,
  options: AsyncIterableOptions = {},
): AsyncIterableIterator<T, undefined> {
  checkSource(events$, 'toAsyncIterable(events$, options)');
  const bufferSize = options.bufferSize ?? DEFAULT_BUFFER_SIZE;
  if (!Number.isSafeInteger(bufferSize) || bufferSize < 1) {
    throw new RangeError(`bufferSize must be a whole number of events, at least 1, got ${String(bufferSize)}`);
  }
  const buffer: T[] = [];
  const waiters: Waiter<T>[] = [];
  let subscription: Subscription | undefined;
  let started = false;
  let done = false;
  let failure: { error: unknown } | undefined;

  const settleWaiters = (): void => {
    while (waiters.length > 0 && (done || failure !== undefined)) {
      const waiter = waiters.shift() as Waiter<T>;
      if (failure !== undefined) {
        waiter.reject(failure.error);
        failure = undefined;
        done = true;
      } else waiter.resolve({ done: true, value: undefined });
    }
  };
  const stop = (): void => {
    subscription?.unsubscribe();
    subscription = undefined;
  };
  const start = (): void => {
    started = true;
    subscription = events$.subscribe({
      next: (value) => {
        // after an overflow inside a synchronous subscribe() there is no subscription to stop yet
        if (failure !== undefined || done) return;
        const waiter = waiters.shift();
        if (waiter !== undefined) return waiter.resolve({ done: false, value });
        buffer.push(value);
        if (buffer.length > bufferSize) {
          buffer.length = 0;
          failure = { error: new BufferOverflowError(bufferSize) };
          stop();
        }
      },
      error: (error: unknown) => {
        failure = { error };
        settleWaiters();
      },
      complete: () => {
        done = true;
        settleWaiters();
      },
    });
    // a synchronous source may have finished inside subscribe()
    if (done || failure !== undefined) stop();
  };

  const iterator: AsyncIterableIterator<T, undefined> = {
    next(): Promise<IteratorResult<T, undefined>> {
      if (!started && !done) start();
      if (buffer.length > 0) return Promise.resolve({ done: false, value: buffer.shift() as T });
      if (failure !== undefined) {
        const { error } = failure;
        failure = undefined;
        done = true;
        return Promise.reject(error);
      }
      if (done) return Promise.resolve({ done: true, value: undefined });
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    },
    return(): Promise<IteratorResult<T, undefined>> {
      done = true;
      failure = undefined;
      buffer.length = 0;
      stop();
      settleWaiters();
      return Promise.resolve({ done: true, value: undefined });
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
