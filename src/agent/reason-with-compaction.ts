import { Observable, type Subscription } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import { contextExceeded, refusedExcessTokens, refusedPromptTokens } from '../model/context-exceeded.js';
import { estimateRequestTokens } from '../model/estimate-tokens.js';
import { ModelError } from '../model/model-error.js';
import type { CompactionReason } from '../session/compaction/compaction-types.js';
import { learnContextWindow, noteServedTokens, noteTokenRatio, tokenRatio, windowAfterRefusal } from '../session/compaction/context-windows.js';
import { errorMessage } from '../errors/error-message.js';
import { compactRun$ } from './compact-run.js';
import { reasonStep$, type StepAnswer, withFinalStepNote } from './reason-step.js';
import type { RunOutput } from './run-output.js';
import type { RunScope } from './run-scope.js';

/**
 * A reasoning step that makes room first: the conversation is compacted when the request
 * would not fit the model's context window (a `Compaction` event before the step's
 * `ContextSize`). The server's count of each request (its usage) against the estimate scales
 * the next estimates, and a window learned smaller than a prompt the server took is forgotten
 * (`noteServedTokens`). A request the server still refuses as too long teaches the window (the
 * one its error names, else a little less than the refused request, in the server's tokens,
 * and no more than it less the excess the error says: `windowAfterRefusal`)
 * and, when the error says how many tokens the server counted, the ratio as a usage would; it is
 * compacted again and sent once more: the step then starts again (`Compaction`,
 * `ContextSize`, `ReasonStart`). A second refusal fails the step with an error saying so; so
 * does the first at once when the compaction did not make the request smaller (the same
 * request would only be refused again).
 * The events go to the run's `output`; the model's answer is the one value.
 *
 * The request's estimate is counted once a step, for both the check whether it fits and its
 * `ContextSize` (with many tools, their schemas are most of the work), and again only after a
 * compaction changed the conversation.
 */
export function reasonWithCompaction$(scope: RunScope, step: number, lastStep: boolean, output: RunOutput): Observable<StepAnswer> {
  // By hand rather than `defer`, `concat`, `tap` and `catchError`: a live step kept all of
  // their subscribers and closures while its model streamed (issue 28, the run tree's memory).
  // The same order: compaction, then the step; each part starts only once the one before it
  // was torn down; a request refused as too long is compacted and sent once more.
  return new Observable<StepAnswer>((out) => {
    let tokens = 0;
    let part: Subscription | undefined;
    /** Runs `source$` as the step's current part; `then` or `fail` once it is over and torn down. */
    const run = <T>(source$: Observable<T>, next: (value: T) => void, fail: (error: unknown) => void, then: () => void): void => {
      let outcome: { readonly error: unknown } | 'complete' | undefined;
      let subscription: Subscription | undefined;
      subscription = source$.subscribe({
        next: (value) => {
          if (outcome) return; // failed in an earlier value, while still being subscribed
          try {
            next(value);
          } catch (e) {
            outcome = { error: e };
            subscription?.unsubscribe(); // undefined while subscribing: the finalizer below still sees the failure
          }
        },
        error: (e: unknown) => (outcome ??= { error: e }),
        complete: () => (outcome ??= 'complete'),
      });
      part = subscription;
      subscription.add(() => {
        if (out.closed || outcome === undefined) return;
        if (outcome === 'complete') then();
        else fail(outcome.error);
      });
    };
    /** `hopeless`: asked when the compaction did not make the request smaller, before it is sent; an error it returns ends the step instead. */
    const attempt = (reason: Exclude<CompactionReason, 'manual'>, fail: (error: unknown) => void, hopeless?: () => unknown): void => {
      let changed = false;
      let compacted$: Observable<AgentEvent>;
      try {
        tokens = requestTokens(scope, lastStep);
        compacted$ = compactRun$(scope, lastStep, reason, tokens);
      } catch (e) {
        return fail(e);
      }
      const compacted = (event: AgentEvent): void => {
        // Only a smaller request is a changed one: the same size would be refused the same way.
        if (event.type === 'Compaction' && event.tokensAfter < event.tokensBefore) changed = true;
        tokens = requestTokens(scope, lastStep); // the conversation was replaced
        output.next(event);
      };
      const answered = (answer: StepAnswer): void => {
        const served = answer.finish.usage?.promptTokens;
        noteTokenRatio(scope.agent.model, tokens, served);
        if (served !== undefined) noteServedTokens(scope.agent.model, served);
        out.next(answer);
      };
      run(compacted$, compacted, fail, () => {
        const unsendable = changed ? undefined : hopeless?.();
        if (unsendable !== undefined) return out.error(unsendable); // as it is: `fail` would take it for a second refusal
        let step$: Observable<StepAnswer>;
        try {
          step$ = reasonStep$(scope, step, lastStep, tokens, output);
        } catch (e) {
          return fail(e);
        }
        run(step$, answered, fail, () => out.complete());
      });
    };
    attempt('context-limit', (error) => {
      const exceeded = contextExceeded(error);
      if (!exceeded) return out.error(error);
      // `tokens`: the refused request's estimate (nothing changed the conversation since). The
      // server's count of it, when its refusal says it, is the ratio as a usage would teach it:
      // the first request of a session may be refused before any usage said how the server
      // counts (10,000 tiny messages count four times their estimate), and a compaction sized
      // by our estimate alone would be refused again.
      const counted = refusedPromptTokens(error, exceeded);
      noteTokenRatio(scope.agent.model, tokens, counted);
      // In the server's tokens, the unit of a window it names: its count, else our estimate
      // scaled by the ratio its last usage taught (1 before any), off its count by as much as
      // that ratio changed since. A refusal naming no window teaches a tenth less than it, or
      // less still when it says by how much the prompt was over (Ollama's): `windowAfterRefusal`.
      const refused = counted ?? tokens * tokenRatio(scope.agent.model);
      learnContextWindow(scope.agent.model, exceeded.window ?? windowAfterRefusal(refused, refusedExcessTokens(error, exceeded)));
      // A compaction that could not change the request (the futility rules of
      // `compactMessages$`, or nothing left to prune or summarise): the same bytes would be
      // refused the same way, whether or not the refusal named the window, so the turn ends now
      // rather than ask the server twice. (A window the server says larger than it takes is not
      // this: the one it names or that its refusal teaches is smaller, and the compaction acts.)
      const hopeless = (): unknown => stillTooLong(scope, lastStep, error, false);
      attempt('context-exceeded', (again) => out.error(contextExceeded(again) ? stillTooLong(scope, lastStep, again, true) : again), hopeless);
    });
    return () => part?.unsubscribe();
  });
}

/** The estimate of the request the run would send now. */
function requestTokens(scope: RunScope, lastStep: boolean): number {
  const { messages } = scope.run;
  return estimateRequestTokens(lastStep ? { messages: withFinalStepNote(messages) } : { messages, tools: scope.toolSpecs() });
}

/**
 * The failure of a request refused as too long even after its conversation was compacted
 * (`resent`), or refused once and not sent again since no compaction could shorten it.
 */
function stillTooLong(scope: RunScope, lastStep: boolean, error: unknown, resent: boolean): ModelError {
  const status = error instanceof ModelError ? error.status : undefined;
  const first = scope.run.messages[0];
  // What no compaction shrinks, named apart: when it is most of the request, the remedy is a larger window or fewer tools.
  const fixed = estimateRequestTokens({ messages: first?.role === 'system' ? [first] : [], ...(lastStep ? {} : { tools: scope.toolSpecs() }) });
  return new ModelError(
    (resent
      ? `the request still does not fit the context window of model "${scope.agent.model.id}" after compacting the conversation as far as it helps `
      : `the request does not fit the context window of model "${scope.agent.model.id}", and compacting the conversation cannot make it fit, so it was not sent again `) +
      `(about ${requestTokens(scope, lastStep)} tokens estimated, ${fixed} of them the system prompt and tool schemas, which compaction cannot shrink; ` +
      `the newest step and the tool results not read yet are kept whole): ${errorMessage(error)}. ` +
      'Give the model a larger context (llama-server -c), fewer tools, a shorter system prompt, shorter tool outputs or a smaller maxTokens',
    { ...(status === undefined ? {} : { status }), cause: error },
  );
}
