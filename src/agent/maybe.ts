import { from, Observable, of } from 'rxjs';

/**
 * Calls `fn` when subscribed and emits its result: synchronously for a plain value, when it
 * settles for a promise. Keeps runs synchronous (and so testable in virtual time) whenever
 * their parts answer synchronously.
 */
export function maybe$<T>(fn: () => T | Promise<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    let value: T | Promise<T>;
    try {
      value = fn();
    } catch (e) {
      subscriber.error(e);
      return;
    }
    return (value instanceof Promise ? from(value) : of(value)).subscribe(subscriber);
  });
}
