import { catchError, concat, defer, EMPTY, filter, ignoreElements, of, type Observable } from 'rxjs';
import type { AgentEvent, RunEndEvent } from '../events/agent-event.js';
import { closingMessages } from '../session/close-turn.js';
import type { MaybePromise } from '../session/session-store.js';
import type { AgentScope } from './agent-scope.js';
import { maybe$ } from './maybe.js';
import type { RunInput } from './run-scope.js';
import type { RunState } from './run-state.js';

/** Why a turn stopped by its subscriber did not finish, as the closing message says. */
const CANCELLED = 'the run was cancelled';

/**
 * The run's events, with its abnormal `RunEnd` (always the last) held back until what closes
 * its unfinished turn is saved (see `closingMessages`): whatever ended it (a model error, a
 * store error, a refused budget), the stored conversation stays one a strict chat template
 * accepts, with the user's question and the reason it got no answer. A store that fails
 * again is ignored (the next load repairs the history, with a `Warning`).
 */
export function closingUnfinishedTurn(events$: Observable<AgentEvent>, agent: AgentScope, input: RunInput, run: RunState): Observable<AgentEvent> {
  // Operators rather than a hand-made subscription: a cancel that arrives while the run is
  // still being subscribed (a synchronous run) must reach the source at once.
  return defer(() => {
    let held: RunEndEvent | undefined;
    const close$ = defer(() => {
      const end = held;
      if (!end) return EMPTY;
      const messages = takeClosing(input, run, end.error ?? 'the run ended abnormally');
      const save$ = messages.length ? maybe$(() => agent.sessions.append(input.sessionId, messages)) : EMPTY;
      return concat(save$.pipe(ignoreElements(), catchError(() => EMPTY)), of(end));
    });
    const hold = (event: AgentEvent): boolean => {
      if (event.type !== 'RunEnd' || !event.abnormal || event.runId !== run.runId) return true;
      held = event;
      return false;
    };
    return concat(events$.pipe(filter(hold)), close$);
  });
}

/**
 * The same for a run stopped by its subscriber before its `RunEnd` (cancelled, at any point:
 * during the model's text, a tool call, an approval): called from the run's teardown, so it
 * cannot wait; returns the store's promise when it has one, never rejecting.
 */
export function closeStoppedTurn(agent: AgentScope, input: RunInput, run: RunState): MaybePromise<void> {
  if (run.ended) return;
  const closing = takeClosing(input, run, CANCELLED);
  if (closing.length === 0) return;
  try {
    const written = agent.sessions.append(input.sessionId, closing);
    if (written instanceof Promise) return written.catch(() => undefined);
  } catch {
    // A store that fails here: the next load repairs the history, with a Warning.
  }
}

/** Calls `release` once `closing` has settled: at once when it is not a promise. */
export function afterClosing(closing: MaybePromise<void>, release: () => void): void {
  if (closing instanceof Promise) void closing.finally(release);
  else release();
}

/** The closing messages of the run's turn, from the end of what it saved (`RunState.saved`), taken once (nothing for a run that saved nothing). */
function takeClosing(input: RunInput, run: RunState, why: string): ReturnType<typeof closingMessages> {
  if (input.ephemeral || run.closed || run.saved.length === 0) return [];
  run.closed = true;
  return closingMessages(run.saved, why);
}
