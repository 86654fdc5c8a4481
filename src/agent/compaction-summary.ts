import { defer, type Observable, last, map, filter, takeWhile, tap, throwError } from 'rxjs';
import type { ChatMessage } from '../model/chat-message.js';
import type { ChatRequest } from '../model/chat-model.js';
import { contextExceeded } from '../model/context-exceeded.js';
import { estimateRequestTokens, estimateTokens } from '../model/estimate-tokens.js';
import { replyCharLimit } from '../model/reply-limit.js';
import { FALLBACK_COMPACTION_PROMPT, SUMMARY_REQUEST } from '../session/compaction/compaction-prompt.js';
import type { WrittenSummary } from '../session/compaction/compaction-types.js';
import { contextWindowOf, learnContextWindow, tokenRatio } from '../session/compaction/context-windows.js';
import { MIN_SUMMARY_TOKENS, MIN_TRANSCRIPT_TOKENS, summaryRoom } from '../session/compaction/summary-room.js';
import { summaryTranscript } from '../session/compaction/summary-transcript.js';
import type { MaybePromise } from '../session/session-store.js';
import { chatTrace } from './chat-trace.js';
import { budgetAdmit } from './reserve-request.js';
import { maybeThen$ } from './maybe.js';
import type { RunScope } from './run-scope.js';
import { estimatedTokens, failedRequestTokens, stepTokens } from './step-budget.js';

/** Characters a token may hold at least, to size the transcript safely under the window (the estimate counts four). */
const SAFE_CHARS_PER_TOKEN = 3;

/**
 * Characters a summary of `maxTokens` may stream (text and reasoning together) before it is
 * given up: four times what an honest server sends for that many tokens. The request's idle
 * timeout never fires on a server that keeps streaming, so a model that ignores `max_tokens`
 * (or loops) would otherwise hold the run, its session and a growing reply forever.
 */
export function summaryStreamLimit(maxTokens: number): number {
  // The rule of every reply (`replyCharLimit`), with a floor fit for a summary.
  return replyCharLimit(maxTokens, 4_096);
}

/**
 * The summariser of a run's compaction: one request of the run's model (or the `compaction`
 * agent's), without tools, with the `compaction` agent's prompt and settings, at most
 * `maxTokens` long; the transcript is cut to fit the window of the model that writes it:
 * `window` (the run's, in estimated tokens) for the run's model, else the `compaction` model's
 * own (`summaryWindow`). Its usage counts in the run's
 * metrics, and in its token budget with the step it made room for (`RunState.summaryTokens`:
 * a budget covers every token a run uses). Errors when the model fails or writes nothing, and
 * without sending it when the token budget is spent (`budgetAdmit`). A reply that streams past
 * {@link summaryStreamLimit} is read no further (its request is aborted) and its start kept,
 * with why in `stopped`; so is one the server cut at its `max_tokens` (`finish_reason: "length"`).
 */
export function summariser(scope: RunScope, window: number): (head: readonly ChatMessage[], maxTokens: number) => Observable<WrittenSummary> {
  return (head, maxTokens) => maybeThen$(() => summaryWindow(scope, window), (own) => summary$(scope, own, head, maxTokens));
}

/**
 * The window the summary request must fit, in estimated tokens: the run's (`runWindow`) when
 * the run's model writes it; else the `compaction` model's, as a run of it would size it (its
 * `contextWindow` setting, else what its server says or a refusal taught, scaled by how its
 * server counted its last request), or the run's when nothing says. A summariser with a smaller
 * window than the run's model would otherwise be sent a transcript it refuses, every time.
 */
function summaryWindow(scope: RunScope, runWindow: number): MaybePromise<number> {
  const { agent } = scope;
  const model = agent.compaction?.model;
  if (model === undefined || model === agent.model) return runWindow;
  const scaled = (said: number | undefined): number => (said === undefined ? runWindow : Math.floor(said / tokenRatio(model)));
  const said = contextWindowOf(model, agent.compaction?.settings);
  return said instanceof Promise ? said.then(scaled) : scaled(said);
}

/** The summary request of `head`, its transcript cut to fit `window` (the summarising model's, in estimated tokens). */
function summary$(scope: RunScope, window: number, head: readonly ChatMessage[], maxTokens: number): Observable<WrittenSummary> {
  const { agent, run } = scope;
  const setup = agent.compaction;
  const prompt = setup?.prompt ?? FALLBACK_COMPACTION_PROMPT;
  const own = setup?.settings?.maxTokens;
  const model = setup?.model ?? agent.model;
  const promptTokens = estimateTokens([{ role: 'system', content: prompt }, { role: 'user', content: SUMMARY_REQUEST }]) + 64;
  const room = summaryRoom(window, promptTokens, own === undefined ? maxTokens : Math.min(own, maxTokens), tokenRatio(model));
  if (room === undefined) return throwError(() => new Error(hopeless(model.id, window, promptTokens)));
  const answerTokens = room.answerTokens;
  const transcript = summaryTranscript(head, room.transcriptTokens * SAFE_CHARS_PER_TOKEN);
  const request: ChatRequest = {
    messages: [
      { role: 'system', content: prompt },
      { role: 'user', content: `${SUMMARY_REQUEST}\n\n${transcript}` },
    ],
    settings: { ...(setup?.settings ?? {}), maxTokens: answerTokens },
    sender: { agentName: 'compaction', runId: run.runId, step: run.steps },
    // Queued behind the request limiter, it looks at the budget again once it may go, as a step's request does.
    // What this step's earlier summaries (and failed requests) used counts as spent, though charged only when the step ends.
    ...(scope.budget ? { admit: budgetAdmit(scope.budget, run) } : {}),
  };
  const limit = summaryStreamLimit(answerTokens);
  // Deltas asked for, to count what streams: the finish of a reply that never ends never comes.
  return defer(() => {
    // Asked here too, for a model without the request limiter (which asks it again in its slot).
    const refused = request.admit?.();
    if (refused) return throwError(() => refused);
    let text = '';
    let streamed = 0;
    let stopped = false;
    // A model request like a step's, traced like one (its own `chat` span under the run's).
    const chat = chatTrace(run, model.id, request.settings);
    return model.stream(request).pipe(
      tap({
        next: (chunk) => {
          if (chunk.type === 'finish') chat?.end(chunk);
        },
        error: (e: unknown) => chat?.end(undefined, e instanceof Error ? e : String(e)),
        complete: () => chat?.end(undefined, `model "${model.id}" ended its response without finishing it`), // after a finish: a no-op
        unsubscribe: () => chat?.stop(), // abandoned at its length limit, or the run stopped
      }),
      tap((chunk) => {
        if (chunk.type === 'text-delta' || chunk.type === 'thinking-delta') streamed += chunk.text.length;
        if (chunk.type === 'text-delta') text += chunk.text;
        stopped = streamed > limit;
      }),
      // A request that failed once its reply began is charged as a step's is (here, before the checks below can fail a finished one).
      tap({
        error: (e: unknown) => {
          run.summaryTokens += failedRequestTokens(e, estimateRequestTokens(request), streamed > 0 ? streamed : undefined);
          // A window the refusal names sizes the next summary this model writes (`summaryWindow`).
          const named = contextExceeded(e)?.window;
          if (named !== undefined) learnContextWindow(model, named);
        },
      }),
      // The chunk past the limit is the last read: unsubscribing aborts the request.
      takeWhile((chunk) => chunk.type !== 'finish' && !stopped, true),
      filter((chunk) => chunk.type === 'finish' || stopped),
      last(),
      map((chunk): WrittenSummary => {
        if (chunk.type !== 'finish') {
          // The server's usage of an abandoned reply never comes: charged what was sent and read.
          run.summaryTokens += estimatedTokens(estimateRequestTokens(request), streamed);
          return { text: text.trim(), stopped: `model "${model.id}" streamed over ${limit} characters for a summary of at most ${answerTokens} tokens (it ignores max_tokens, or loops): the reply was read no further, its start kept` };
        }
        run.addUsage(chunk.usage);
        run.summaryTokens += stepTokens(estimateRequestTokens(request), chunk).tokens;
        // Cut at its limit, it may end mid-sentence: kept (its start is the summary), and said, as a step's cut answer is.
        // Not said "kept as it is": longer than the compaction asked (a server's tokens of more than four characters), it is cut there too, and said so after this.
        if (chunk.finishReason === 'length') {
          const stopped = `model "${model.id}" stopped the summary at its limit of ${answerTokens} tokens (finish_reason "length"): it may end mid-sentence`;
          return { text: chunk.text.trim(), stopped };
        }
        return { text: chunk.text.trim() };
      }),
      map((summary) => {
        if (summary.text === '') throw new Error(summary.stopped ?? `model "${model.id}" wrote an empty summary`);
        return summary;
      }),
    );
  });
}

/** Why no summary request is sent to a summariser whose window cannot hold one. */
function hopeless(modelId: string, window: number, promptTokens: number): string {
  return (
    `model "${modelId}" cannot write a summary: its context window (about ${window} tokens) holds its instructions (about ${promptTokens}) ` +
    `but not ${MIN_TRANSCRIPT_TOKENS} tokens of conversation and a ${MIN_SUMMARY_TOKENS}-token summary besides, so no summary request was sent. ` +
    'Give the compaction model a larger context, a shorter prompt, or let the run\'s model summarise'
  );
}
