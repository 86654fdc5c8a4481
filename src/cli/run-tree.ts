import { catchError, concatWith, defer, EMPTY, type Observable, tap, throwError } from 'rxjs';
import { liveTree } from '../adapters/terminal-tree/index.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { CliIO } from './cli-io.js';

/**
 * A run's events drawn as a tree on `io.stdout` by `liveTree`, passed through unchanged,
 * with the run's failure, if any, as the error; but a failure before any event (a refused
 * run: a busy session, say) never reaches the tree, which would only have drawn its `error:`
 * line before stderr says the same. It is left to stderr alone, as every error of a command
 * that ran nothing is. A failure after the tree began is drawn in it and said on stderr too:
 * on a terminal the tree's line is cut to the width, and stderr keeps the whole advice.
 *
 * @example
 * ```ts
 * presentRun(runTree(engine.stream(prompt), io), false, io);
 * ```
 */
export function runTree(events$: Observable<AgentEvent>, io: Pick<CliIO, 'stdout'>): Observable<AgentEvent> {
  return defer(() => {
    let began = false;
    let refused: { readonly error: unknown } | undefined;
    return events$.pipe(
      tap(() => (began = true)),
      catchError((error: unknown) => {
        if (began) return throwError(() => error);
        refused = { error };
        return EMPTY; // the tree ends with nothing drawn; the error follows it
      }),
      liveTree({ output: io.stdout }),
      concatWith(defer(() => (refused === undefined ? EMPTY : throwError(() => refused!.error)))),
    );
  });
}
