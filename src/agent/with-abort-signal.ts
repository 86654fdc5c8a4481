import { Observable, Subscription, type MonoTypeOperatorFunction } from 'rxjs';
import { AbortError } from '../errors/abort-error.js';
import { onAbort } from './abort-fanout.js';

/**
 * Ties a stream to an `AbortSignal`: when it aborts, the source is unsubscribed (which stops
 * the run and everything it started) and the stream errors with {@link AbortError}. A signal
 * that is already aborted fails the stream before the source starts.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * agent.stream('hi').pipe(withAbortSignal(controller.signal)).subscribe({ error: console.error });
 * controller.abort();
 * ```
 */
export function withAbortSignal<T>(signal: AbortSignal | undefined): MonoTypeOperatorFunction<T> {
  if (!signal) return (source) => source;
  return (source) =>
    new Observable<T>((subscriber) => {
      if (signal.aborted) {
        subscriber.error(new AbortError(signal.reason));
        return;
      }
      // Created first so an abort fired while the source subscribes still stops it.
      const inner = new Subscription();
      const abort = (): void => {
        inner.unsubscribe();
        subscriber.error(new AbortError(signal.reason));
      };
      const stopListening = onAbort(signal, abort);
      // Not `source.subscribe(subscriber)`: that returns `subscriber` itself, so unsubscribing
      // `inner` would close the output before the AbortError could be sent through it.
      inner.add(
        source.subscribe({
          next: (value) => subscriber.next(value),
          error: (error: unknown) => subscriber.error(error),
          complete: () => subscriber.complete(),
        }),
      );
      return () => {
        stopListening();
        inner.unsubscribe();
      };
    });
}
