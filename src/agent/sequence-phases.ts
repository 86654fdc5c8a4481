import { Observable, type OperatorFunction, type Subscription } from 'rxjs';

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
 * stack. Here a part that ends while the loop that started it is still on the stack only
 * names its successor, and that loop starts it once the stack has unwound (a trampoline of
 * the sequence's own): the depth stays constant, while a run whose parts are synchronous
 * still runs synchronously (and so in virtual time). A part that ends later (a model's
 * response) starts its successor right there.
 *
 * Why by hand and not `expand` with `subscribeOn(queueScheduler)`, as before: that kept, for
 * every live agent, `expand`'s merge machinery (seven closures and two subscribers), and for
 * every part a `defer`, a `subscribeOn` and a forwarding subscriber (issue 28: the run tree's
 * memory). Here one subscription per live part and nothing else. The values never pass
 * through an operator (each part forwards them straight to the output), only `Next` is kept.
 *
 * As `concat` does, the next part starts only once the last one is torn down (its model
 * request released, its tool's signal aborted). A phase that errors ends the sequence at once:
 * with `recover`, its result is emitted as the last value before completion; without, the
 * stream errors. Unsubscribing stops the running part; nothing more starts.
 *
 * @example
 * ```ts
 * const count$ = (n: number): Phase<number> => () => (n < 3 ? of(n, new Next(count$(n + 1))) : of(n));
 * sequencePhases$(count$(1)).subscribe(console.log); // 1, 2, 3
 * ```
 */
export function sequencePhases$<T>(first: Phase<T>, recover?: (error: unknown) => T): Observable<T> {
  return new Observable<T>((out) => {
    let pending: Phase<T> | undefined = first;
    let current: Subscription | undefined;
    let looping = false;
    let failed = false;
    const fail = (e: unknown): void => {
      failed = true;
      pending = undefined;
      if (!recover) return out.error(e);
      out.next(recover(e));
      out.complete();
    };
    // Runs the parts named meanwhile, until one is still running (it continues when it ends).
    const loop = (): void => {
      if (looping) return; // the loop below is on the stack: it takes the part when this returns
      looping = true;
      try {
        // `out.closed`: a run unsubscribed while it was still being subscribed (a synchronous
        // run cancelling itself) has no teardown to call yet; it stops here.
        while (pending && !out.closed) {
          const phase = pending;
          pending = undefined;
          start(phase);
        }
        if (!pending && !current && !failed && !out.closed) out.complete();
      } finally {
        looping = false;
      }
    };
    const start = (phase: Phase<T>): void => {
      let next: Phase<T> | undefined;
      let ended = false;
      let phase$: Observable<T | Next<T>>;
      try {
        phase$ = phase();
      } catch (e) {
        return fail(e);
      }
      const subscription = phase$.subscribe({
        next: (value) => (value instanceof Next ? (next = value.phase) : out.next(value)),
        error: (e: unknown) => fail(e),
        complete: () => (ended = true),
      });
      if (subscription.closed) {
        // Over already (synchronously): its successor is taken by the loop on the stack.
        if (ended) pending = next;
        return;
      }
      current = subscription;
      // Runs once the part is torn down: after its completion, or when it is stopped.
      subscription.add(() => {
        current = undefined;
        if (!ended || out.closed) return;
        pending = next;
        loop();
      });
      if (out.closed) subscription.unsubscribe();
    };
    loop();
    return () => {
      pending = undefined;
      current?.unsubscribe();
    };
  });
}

/**
 * Continues with a part's result (the one value a step or a tool call emits last) once the
 * part has completed and been torn down (its model request released, its tool's signal
 * aborted, its span ended), as `concat` does and `concatMap` would not: the continuation saves
 * the result and starts the next part, which must not run before the last one is over.
 * A part that completes without a result fails the run, saying so.
 *
 * By hand rather than `concat` with `tap` and `ignoreElements`: one subscription per live
 * step instead of `concat`'s merge machinery and two more subscribers (issue 28).
 *
 * @example
 * ```ts
 * toolCall$(scope, step, call, output).pipe(afterResult((text) => save$(text)));
 * ```
 */
export function afterResult<T, R>(project: (result: T) => Observable<R>): OperatorFunction<T, R> {
  return (part$) =>
    new Observable<R>((out) => {
      let result: { readonly value: T } | undefined;
      let ended = false;
      const part = part$.subscribe({
        next: (value) => (result = { value }),
        error: (e: unknown) => out.error(e),
        complete: () => (ended = true),
      });
      // Once the part is torn down (at once when it is over already): the continuation, in `out`'s place.
      part.add(() => {
        if (!ended || out.closed) return;
        if (!result) return out.error(new Error('a part of the run ended without its result'));
        let then$: Observable<R>;
        try {
          then$ = project(result.value);
        } catch (e) {
          return out.error(e);
        }
        then$.subscribe(out);
      });
      return part;
    });
}
