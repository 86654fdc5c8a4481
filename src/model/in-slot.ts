import type { LimitFunction } from 'p-limit';
import { Observable, type Subscription } from 'rxjs';

/** What {@link inSlot$} tells about a job that has to wait for a slot. */
export interface SlotWait<T> {
  /**
   * Called at subscribe time when every slot is taken: the job waits. `leave(values)` takes it
   * out of the queue: it never starts, and its subscriber gets `values`, then completion.
   */
  readonly onQueued?: (leave: (values: readonly T[]) => void) => void;
  /** Called when a job that never started is unsubscribed (its subscriber left while it waited). */
  readonly onDropped?: () => void;
}

/**
 * Subscribes to `job$` inside a slot of a p-limit limiter, and frees the slot when that
 * subscription ends however it ends (completion, error, unsubscribe).
 *
 * p-limit holds promises, our work is Observables: the slot is a promise that settles when the
 * job's subscription ends, so no slot is kept by work that is gone. p-limit never settles the
 * promise of a job left in its queue (`clearQueue`): nothing waits on those promises, and a
 * job that comes out of the queue after its subscriber left settles at once, starting nothing.
 * p-limit starts a job on a promise tick, never synchronously (use fake timers, not the
 * TestScheduler's synchronous flush, to test what runs through it).
 *
 * @example
 * ```ts
 * const limit = pLimit(2);
 * const reply$ = inSlot$(limit, model.stream(request)); // at most 2 requests at once
 * ```
 */
export function inSlot$<T>(limit: LimitFunction, job$: Observable<T>, wait: SlotWait<T> = {}): Observable<T> {
  return new Observable<T>((out) => {
    let state: 'waiting' | 'running' | 'gone' = 'waiting';
    let running: Subscription | undefined;
    let release: (() => void) | undefined;
    // A function, so that the check after `subscribe` reads the state a callback may have set.
    const left = (): boolean => state === 'gone';
    // Full when every slot is taken or promised to an earlier job (p-limit starts jobs a tick later).
    if (wait.onQueued && limit.activeCount + limit.pendingCount >= limit.concurrency) {
      wait.onQueued((values) => {
        if (state !== 'waiting') return;
        state = 'gone';
        for (const value of values) out.next(value);
        out.complete();
      });
    }
    void limit(
      () =>
        new Promise<void>((resolve) => {
          if (state !== 'waiting') return resolve(); // left while it waited: never starts
          state = 'running';
          release = resolve;
          running = job$.subscribe({
            next: (value) => out.next(value),
            error: (error: unknown) => {
              resolve();
              out.error(error);
            },
            complete: () => {
              resolve();
              out.complete();
            },
          });
          // The subscriber may have left during that subscribe (it unsubscribed on a value the
          // job emitted synchronously, e.g. a child's RunStart): the teardown below ran while
          // `running` was still unset, so the job is stopped here instead of running on unseen.
          if (left()) running.unsubscribe();
        }),
    );
    return () => {
      if (state === 'waiting') wait.onDropped?.();
      state = 'gone';
      running?.unsubscribe();
      release?.();
    };
  });
}
