import { concat, defer, ignoreElements, type Observable, type OperatorFunction, tap, throwError } from 'rxjs';

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
