import { catchError, concat, defer, ignoreElements, type Observable, tap, throwError } from 'rxjs';
import { contextExceeded } from '../model/context-exceeded.js';
import { estimateRequestTokens } from '../model/estimate-tokens.js';
import { ModelError } from '../model/model-error.js';
import type { CompactionReason } from '../session/compaction/compaction-types.js';
import { learnContextWindow, noteTokenRatio } from '../session/compaction/context-windows.js';
import { errorMessage } from '../errors/error-message.js';
import { compactRun$ } from './compact-run.js';
import { reasonStep$, type StepAnswer, withFinalStepNote } from './reason-step.js';
import type { RunOutput } from './run-output.js';
import type { RunScope } from './run-scope.js';

/**
 * A reasoning step that makes room first: the conversation is compacted when the request
 * would not fit the model's context window (a `Compaction` event before the step's
 * `ContextSize`). The server's count of each request (its usage) against the estimate scales
 * the next estimates. A request the server still refuses as too long teaches the window (the
 * one its error names, else a little less than the refused request's estimate), is
 * compacted again and sent once more: the step then starts again (`Compaction`,
 * `ContextSize`, `ReasonStart`). A second refusal fails the step with an error saying so.
 * The events go to the run's `output`; the model's answer is the one value.
 *
 * The request's estimate is counted once a step, for both the check whether it fits and its
 * `ContextSize` (with many tools, their schemas are most of the work), and again only after a
 * compaction changed the conversation.
 */
export function reasonWithCompaction$(scope: RunScope, step: number, lastStep: boolean, output: RunOutput): Observable<StepAnswer> {
  let tokens = 0;
  const attempt$ = (reason: Exclude<CompactionReason, 'manual'>): Observable<StepAnswer> =>
    defer(() => {
      tokens = requestTokens(scope, lastStep);
      const compacted$ = compactRun$(scope, lastStep, reason, tokens).pipe(
        tap((event) => {
          tokens = requestTokens(scope, lastStep); // the conversation was replaced
          output.next(event);
        }),
        ignoreElements(),
      );
      return concat(
        compacted$,
        defer(() => reasonStep$(scope, step, lastStep, tokens, output)),
      ).pipe(tap(({ finish }) => noteTokenRatio(scope.agent.model, tokens, finish.usage?.promptTokens)));
    });
  return attempt$('context-limit').pipe(
    catchError((error: unknown) => {
      const exceeded = contextExceeded(error);
      if (!exceeded) return throwError(() => error);
      // `tokens`: the refused request's estimate (nothing changed the conversation since).
      learnContextWindow(scope.agent.model, exceeded.window ?? Math.floor(tokens * 0.9));
      return attempt$('context-exceeded').pipe(
        catchError((again: unknown) => throwError(() => (contextExceeded(again) ? stillTooLong(scope, lastStep, again) : again))),
      );
    }),
  );
}

/** The estimate of the request the run would send now. */
function requestTokens(scope: RunScope, lastStep: boolean): number {
  const { messages } = scope.run;
  return estimateRequestTokens(lastStep ? { messages: withFinalStepNote(messages) } : { messages, tools: scope.toolSpecs() });
}

/** The failure of a request refused as too long even after its conversation was compacted. */
function stillTooLong(scope: RunScope, lastStep: boolean, error: unknown): ModelError {
  const status = error instanceof ModelError ? error.status : undefined;
  return new ModelError(
    `the request still does not fit the context window of model "${scope.agent.model.id}" after compacting the conversation ` +
      `(about ${requestTokens(scope, lastStep)} tokens estimated with the tool schemas and system prompt): ${errorMessage(error)}. ` +
      'Give the model a larger context (llama-server -c), fewer tools, a shorter system prompt or a smaller maxTokens',
    { ...(status === undefined ? {} : { status }), cause: error },
  );
}
