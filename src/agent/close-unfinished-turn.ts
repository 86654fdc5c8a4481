import { catchError, concat, defer, EMPTY, filter, ignoreElements, of, type Observable } from 'rxjs';
import type { AgentEvent, RunEndEvent } from '../events/agent-event.js';
import type { ChatMessage } from '../model/chat-message.js';
import { closingMessages } from '../session/close-turn.js';
import type { MaybePromise } from '../session/session-store.js';
import type { AgentScope } from './agent-scope.js';
import { maybe$, maybeThen$ } from './maybe.js';
import { namedTail } from './named-tail.js';
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
      const closing = takeClosing(agent, input, run, end.error ?? 'the run ended abnormally');
      const save$ = maybeThen$(() => closing, (messages) => (messages.length ? maybe$(() => agent.sessions.append(input.sessionId, messages)) : EMPTY));
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
  const closing = takeClosing(agent, input, run, CANCELLED);
  return closing instanceof Promise ? closing.then((messages) => saveClosing(agent, input, messages)) : saveClosing(agent, input, closing);
}

/** Appends the closing `messages` (when there are any), answering the store's promise when it has one, never rejecting. */
function saveClosing(agent: AgentScope, input: RunInput, messages: readonly ChatMessage[]): MaybePromise<void> {
  if (messages.length === 0) return;
  try {
    const written = agent.sessions.append(input.sessionId, messages);
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

/**
 * The closing messages of the run's turn, from the end of what it saved (`RunState.saved`),
 * taken once (nothing for a run that saved nothing); a cut `task`/`multitask` call's result
 * names the tasks it started, as a load's repair would (`namedTail`, judged against the whole
 * conversation the run holds: `RunState.messages`, whose last assistant message is the caller).
 */
function takeClosing(agent: AgentScope, input: RunInput, run: RunState, why: string): MaybePromise<readonly ChatMessage[]> {
  if (input.ephemeral || run.closed || run.saved.length === 0) return [];
  run.closed = true;
  const closing = closingMessages(run.saved, why);
  return closing.length === 0 ? closing : namedTail(agent, input, run.messages, closing);
}
