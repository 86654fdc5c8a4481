import { Observable, type Subscriber } from 'rxjs';

/**
 * Calls `fn` when subscribed and emits its result: synchronously for a plain value, when it
 * settles for a promise. Keeps runs synchronous (and so testable in virtual time) whenever
 * their parts answer synchronously.
 *
 * @example
 * ```ts
 * maybe$(() => store.load(id)).subscribe((history) => console.log(history.length));
 * ```
 */
export function maybe$<T>(fn: () => T | Promise<T>): Observable<T> {
  return new Observable<T>((out) => settle(out, fn, undefined, (value) => {
    out.next(value);
    out.complete();
  }));
}

/**
 * `maybe$(fn).pipe(concatMap(project))` without the operator: calls `fn` when subscribed,
 * then subscribes the stream `project` makes of its value (at once for a plain value, when
 * it settles for a promise) in this stream's place. Why by hand: a run's start and every
 * saved step chained these, and `concatMap`'s merge machinery was most of what a run start
 * allocated (issue 28: the start surge under load). A failure of `fn` or `project` errors
 * the stream; unsubscribing before a promise settles subscribes nothing, and hands its value
 * to `late` when given (what the value took is given back: a prompt prefix's results).
 *
 * @example
 * ```ts
 * maybeThen$(() => store.append(id, messages), () => of(new Next(nextStep)));
 * ```
 */
export function maybeThen$<T, R>(fn: () => T | Promise<T>, project: (value: T) => Observable<R>, late?: (value: T) => void): Observable<R> {
  return new Observable<R>((out) =>
    settle(out, fn, late, (value) => {
      let then$: Observable<R>;
      try {
        then$ = project(value);
      } catch (e) {
        return out.error(e);
      }
      // Subscribed with `out` itself: its values, error and completion are this stream's.
      then$.subscribe(out);
    }),
  );
}

/**
 * Calls `fn` and returns what it returns; calls `failed` when it throws or its promise
 * rejects, even once nobody waits for it any more (a run cancelled during a save).
 *
 * @example
 * ```ts
 * whenFailed(() => store.append(id, [prompt]), () => tracker.putBack(id, taken, undefined));
 * ```
 */
export function whenFailed<T>(fn: () => T | Promise<T>, failed: () => void): T | Promise<T> {
  let value: T | Promise<T>;
  try {
    value = fn();
  } catch (e) {
    failed();
    throw e;
  }
  // The original promise is returned: its rejection still reaches whoever waits for it.
  if (value instanceof Promise) value.catch(() => failed());
  return value;
}

/** Calls `fn`; hands its value to `take` at once, or once its promise settles while `out` is open (else to `late`). */
function settle<T, R>(out: Subscriber<R>, fn: () => T | Promise<T>, late: ((value: T) => void) | undefined, take: (value: T) => void): void {
  let value: T | Promise<T>;
  try {
    value = fn();
  } catch (e) {
    return out.error(e);
  }
  if (!(value instanceof Promise)) return take(value);
  value.then(
    (settled) => {
      if (!out.closed) take(settled);
      else late?.(settled);
    },
    (e: unknown) => out.error(e),
  );
}
