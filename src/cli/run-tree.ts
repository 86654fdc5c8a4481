import { catchError, concatWith, defer, EMPTY, map, type Observable, tap, throwError } from 'rxjs';
import { liveTree } from '../adapters/terminal-tree/index.js';
import type { AgentEvent } from '../events/agent-event.js';
import { errorMessage } from '../errors/error-message.js';
import type { CliIO } from './cli-io.js';
import { shownText } from './shown-error.js';

/**
 * A run's events drawn as a tree on `io.stdout` by `liveTree`, passed through unchanged,
 * with the run's failure, if any, as the error; but a failure before any event (a refused
 * run: a busy session, say) never reaches the tree, which would only have drawn its `error:`
 * line before stderr says the same. It is left to stderr alone, as every error of a command
 * that ran nothing is. A failure after the tree began is drawn in it and said on stderr too:
 * on a terminal the tree's line is cut to the width, and stderr keeps the whole advice.
 *
 * `asksHuman` says which approvals write to the terminal (see `liveTree`); default: all.
 *
 * The tree prints the run's own error whole (its `run failed:` line, its `error:` line): the
 * tree is given it cut to its start and end (see `shownText`), since a model server writes it.
 *
 * @example
 * ```ts
 * presentRun(runTree(engine.stream(prompt), io), false, io);
 * ```
 */
export function runTree(events$: Observable<AgentEvent>, io: Pick<CliIO, 'stdout'>, asksHuman?: () => boolean): Observable<AgentEvent> {
  return defer(() => {
    let began = false;
    let refused: { readonly error: unknown } | undefined;
    let failure: { readonly error: unknown } | undefined;
    return events$.pipe(
      tap(() => (began = true)),
      catchError((error: unknown) => {
        if (!began) {
          refused = { error };
          return EMPTY; // the tree ends with nothing drawn; the error follows it
        }
        failure = { error };
        return throwError(() => clippedError(error));
      }),
      map(clippedEnd),
      liveTree({ output: io.stdout, ...(asksHuman === undefined ? {} : { asksHuman }) }),
      // The caller gets the run's own error, not the tree's cut copy (stderr cuts it too, see `shownError`).
      catchError((error: unknown) => throwError(() => (failure === undefined ? error : failure.error))),
      concatWith(defer(() => (refused === undefined ? EMPTY : throwError(() => refused!.error)))),
    );
  });
}

// The run's own end (not a task's, which the tree cuts to a line itself) with its error cut for printing.
function clippedEnd(event: AgentEvent): AgentEvent {
  if (event.type !== 'RunEnd' || event.error === undefined) return event;
  const error = shownText(event.error);
  return error === event.error ? event : { ...event, error };
}

// An error of the same name whose message is cut for printing (the tree writes `name: message`).
function clippedError(error: unknown): unknown {
  const message = errorMessage(error);
  const shown = shownText(message);
  if (shown === message) return error;
  const copy = new Error(shown);
  copy.name = error instanceof Error ? error.name : 'Error';
  return copy;
}
