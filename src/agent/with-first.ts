import { Observable } from 'rxjs';

/**
 * `value`, then the values of `source$` (subscribed in this stream's place, only while it is
 * still wanted): `startWith` without the merge machinery `concat` builds for every
 * subscription. A run's `RunStart` goes before its setup so (issue 28: the start surge).
 *
 * @example
 * ```ts
 * withFirst$(0, of(1, 2)).subscribe(console.log); // 0, 1, 2
 * ```
 */
export function withFirst$<T>(value: T, source$: Observable<T>): Observable<T> {
  return new Observable<T>((out) => {
    out.next(value);
    // Stopped on its first value (a synchronous consumer cancelling): the source never starts.
    if (!out.closed) source$.subscribe(out);
  });
}
