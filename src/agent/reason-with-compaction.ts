import { catchError, concat, defer, type Observable, type Subscriber, tap, throwError } from 'rxjs';
import type { AgentEvent, ToolCallInfo } from '../events/agent-event.js';
import type { ModelFinish } from '../model/chat-model.js';
import { contextExceeded } from '../model/context-exceeded.js';
import { estimateRequestTokens } from '../model/estimate-tokens.js';
import { ModelError } from '../model/model-error.js';
import { learnContextWindow, noteTokenRatio } from '../session/compaction/context-windows.js';
import { errorMessage } from '../errors/error-message.js';
import { compactRun$ } from './compact-run.js';
import { reasonStep$, withFinalStepNote } from './reason-step.js';
import type { RunScope } from './run-scope.js';

/**
 * A reasoning step that makes room first: the conversation is compacted when the request
 * would not fit the model's context window (a `Compaction` event before the step's
 * `ContextSize`). The server's count of each request (its usage) against the estimate scales
 * the next estimates. A request the server still refuses as too long teaches the window (the
 * one its error names, else a little less than the refused request's estimate), is
 * compacted again and sent once more: the step then starts again (`Compaction`,
 * `ContextSize`, `ReasonStart`). A second refusal fails the step with an error saying so.
 */
export function reasonWithCompaction$(
  scope: RunScope,
  step: number,
  lastStep: boolean,
  onFinish: (finish: ModelFinish, toolCalls: readonly ToolCallInfo[]) => void,
  deltas?: Pick<Subscriber<AgentEvent>, 'next'>,
): Observable<AgentEvent> {
  const attempt = (): Observable<AgentEvent> => {
    // The request's estimate, as its `ContextSize` says it (counted once, not again here).
    let estimated = 0;
    const finished = (finish: ModelFinish, calls: readonly ToolCallInfo[]): void => {
      noteTokenRatio(scope.agent.model, estimated, finish.usage?.promptTokens);
      onFinish(finish, calls);
    };
    return reasonStep$(scope, step, lastStep, finished, deltas).pipe(tap((event) => event.type === 'ContextSize' && (estimated = event.tokenCount)));
  };
  return concat(compactRun$(scope, lastStep, 'context-limit'), defer(attempt)).pipe(
    catchError((error: unknown) => {
      const exceeded = contextExceeded(error);
      if (!exceeded) return throwError(() => error);
      const tried = requestTokens(scope, lastStep);
      learnContextWindow(scope.agent.model, exceeded.window ?? Math.floor(tried * 0.9));
      return concat(compactRun$(scope, lastStep, 'context-exceeded'), defer(attempt)).pipe(
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
