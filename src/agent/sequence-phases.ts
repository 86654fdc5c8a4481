import { concat, defer, EMPTY, expand, ignoreElements, Observable, of, type OperatorFunction, queueScheduler, subscribeOn, tap, throwError } from 'rxjs';

/**
 * One part of a sequence: emits values, then at most one {@link Next} as its last value,
 * naming the part to run after it. A part that emits no `Next` ends the sequence.
 */
export type Phase<T> = () => Observable<T | Next<T>>;

/** The marker a {@link Phase} emits last to say what runs next. */
export class Next<T> {
  constructor(readonly phase: Phase<T>) {}
}

/**
 * Runs phases one after another and emits their values, live, as one stream.
 *
 * Why not completion callbacks or nested `concat`: a run whose parts answer synchronously
 * (a scripted model, a tool returning a string, an in-memory store) would then start each
 * part inside the previous one's `complete`, and 2,000 steps or tool calls overflow the
 * stack. Here the parts are chained by `expand` with a concurrency of 1, and each part is
 * subscribed on the `queueScheduler`: a part started while another part's subscription is
 * still on the stack waits in the queue until that stack has unwound (a trampoline), so the
 * depth stays constant, while a run whose parts are synchronous still runs synchronously
 * (and so in virtual time). (`expand`'s own scheduler argument is not used: it does not count
 * a scheduled part as active, so the sequence would complete before that part ran.)
 *
 * The values themselves never pass through `expand` (which would cost a projection and a
 * subscription per value on the hottest path, every streamed delta): each part forwards
 * them straight to the output, and only its `Next` goes on to `expand`.
 *
 * A phase that errors ends the sequence: with `recover`, its result is emitted as the last
 * value before completion; without, the stream errors.
 *
 * @example
 * ```ts
 * const count$ = (n: number): Phase<number> => () => (n < 3 ? of(n, new Next(count$(n + 1))) : of(n));
 * sequencePhases$(count$(1)).subscribe(console.log); // 1, 2, 3
 * ```
 */
export function sequencePhases$<T>(first: Phase<T>, recover?: (error: unknown) => T): Observable<T> {
  return new Observable<T>((out) =>
    of(new Next(first))
      // `out.closed`: a run unsubscribed while it was still being subscribed (a synchronous
      // run cancelling itself) has no teardown to call yet; it stops at the next phase.
      .pipe(expand((next) => defer(() => (out.closed ? EMPTY : forwardValues(next.phase(), out))).pipe(subscribeOn(queueScheduler)), 1))
      .subscribe({
        error: (e: unknown) => {
          if (!recover) return out.error(e);
          out.next(recover(e));
          out.complete();
        },
        complete: () => out.complete(),
      }),
  );
}

/** Sends a phase's values to `out` and passes on only its `Next`. */
function forwardValues<T>(phase$: Observable<T | Next<T>>, out: { next(value: T): void }): Observable<Next<T>> {
  return new Observable<Next<T>>((subscriber) =>
    phase$.subscribe({
      next: (value) => (value instanceof Next ? subscriber.next(value) : out.next(value)),
      error: (e: unknown) => subscriber.error(e),
      complete: () => subscriber.complete(),
    }),
  );
}

/**
 * Continues with a part's result (the one value a step or a tool call emits last) once the
 * part has completed and been torn down (its model request released, its tool's signal
 * aborted, its span ended), as `concat` does and `concatMap` would not: the continuation saves
 * the result and starts the next part, which must not run before the last one is over.
 * A part that completes without a result fails the run, saying so.
 *
 * @example
 * ```ts
 * toolCall$(scope, step, call, output).pipe(afterResult((text) => save$(text)));
 * ```
 */
export function afterResult<T, R>(project: (result: T) => Observable<R>): OperatorFunction<T, R> {
  return (part$) =>
    defer(() => {
      let result: { readonly value: T } | undefined;
      return concat(
        part$.pipe(
          tap((value) => (result = { value })),
          ignoreElements(),
        ),
        defer(() => (result ? project(result.value) : throwError(() => new Error('a part of the run ended without its result')))),
      );
    });
}
