import { concatMap, EMPTY, type Observable, of } from 'rxjs';
import type { AgentEvent, CompactionEvent } from '../events/agent-event.js';
import type { ChatMessage } from '../model/chat-message.js';
import { estimateRequestTokens } from '../model/estimate-tokens.js';
import { compactMessages$ } from '../session/compaction/compact-messages.js';
import type { CompactionOutcome, CompactionReason } from '../session/compaction/compaction-types.js';
import { answerReserve, contextWindowOf, tokenRatio } from '../session/compaction/context-windows.js';
import { maybeThen$ } from './maybe.js';
import type { RunScope } from './run-scope.js';
import { summariser } from './compaction-summary.js';

/**
 * Compacts the run's conversation before a request when it would not fit the model's
 * context window (`context-limit`), or after the server refused one as too long
 * (`context-exceeded`: it shrinks further). The run's messages are replaced and, for a run
 * with a session, the store's too (`SessionStore.replace`, which archives the transcript).
 * Emits the `Compaction` event (then a `background-results-cut` `Warning` when the background
 * results in front of the prompt were cut to fit), or nothing when the window is unknown or the
 * request fits.
 * `estimate`: the whole request's estimate, already counted for its `ContextSize`; a request
 * that clearly fits is let through on it alone.
 */
export function compactRun$(scope: RunScope, lastStep: boolean, reason: Exclude<CompactionReason, 'manual'>, estimate: number): Observable<AgentEvent> {
  const { agent } = scope;
  return maybeThen$(
    () => contextWindowOf(agent.model, agent.modelSettings),
    (window) => (window === undefined ? EMPTY : compactWithin$(scope, lastStep, reason, window, estimate)),
  );
}

function compactWithin$(scope: RunScope, lastStep: boolean, reason: CompactionReason, window: number, estimate: number): Observable<AgentEvent> {
  const { run, agent, input } = scope;
  const estimatedWindow = estimatedWindowOf(scope, window);
  // Fits: the session and the fixed part counted apart (below) can exceed the whole request's
  // estimate by one token of rounding, never more, so this says what that count would say. The
  // answer's room here is the whole of it, never less than the capped one below: a request let
  // through here fits that too, and the tool schemas are measured only past this check.
  if (reason === 'context-limit' && estimate + 1 <= estimatedWindow - answerReserve(window, maxTokensOf(scope))) return EMPTY;
  const first = run.messages[0];
  const system: ChatMessage[] = first?.role === 'system' ? [first] : [];
  const session = run.messages.slice(system.length);
  const { requestFixed, fixedTokens } = requestSizing(scope, system, lastStep, window);
  if (requestFixed >= estimatedWindow) return noRoomWarning$(scope, window, requestFixed);
  const tight = tightWarning(scope, window, requestFixed, fixedTokens - requestFixed, estimatedWindow - fixedTokens);
  const sizing = { messages: session, window: estimatedWindow, serverWindow: window, fixedTokens, requestFixedTokens: requestFixed, reason, prompt: input.prompt };
  return compactMessages$({ ...sizing, summarise: summariser(scope, estimatedWindow) }).pipe(
    concatMap((outcome) => {
      if (!outcome) return EMPTY;
      run.messages = [...system, ...outcome.messages];
      const event = (archived: boolean): CompactionEvent => ({
        type: 'Compaction', runId: run.runId, agentName: run.agentName, sessionId: input.sessionId, reason, contextWindow: window,
        tokensBefore: outcome.tokensBefore + requestFixed, tokensAfter: outcome.tokensAfter + requestFixed,
        prunedToolResults: outcome.prunedToolResults, summarisedMessages: outcome.summarisedMessages,
        ...(outcome.summaryError === undefined ? {} : { summaryError: outcome.summaryError }), archived,
      });
      // The user is told of background results cut to fit, as the model is (by a note in the block).
      const told = (archived: boolean): Observable<AgentEvent> => {
        const cut = outcome.resultsCut;
        const warnings = [...(cut ? [resultsCutWarning(scope, window, cut, archived)] : []), ...tight()];
        return of(event(archived), ...warnings);
      };
      const { sessions } = agent;
      if (input.ephemeral || !sessions.replace) return told(false);
      return maybeThen$(() => sessions.replace!(input.sessionId, outcome.messages), () => told(true));
    }),
  );
}

/**
 * The `Warning` that the system prompt and tool schemas alone fill the window, once a run: no
 * compaction can make room then (it would eat the conversation, turn after turn, for nothing),
 * so the request is sent as it is and the server decides (a window set smaller than the
 * server's, or learned from a lie, is no refusal).
 */
function noRoomWarning$(scope: RunScope, window: number, requestFixed: number): Observable<AgentEvent> {
  const { run, agent } = scope;
  // Once a run, not once a step (`RunState.warnedOnce`).
  if (!warnOnce(run, 'context-window-too-small')) return EMPTY;
  const tokens = Math.ceil(requestFixed * tokenRatio(agent.model));
  const message =
    `The system prompt and tool schemas alone take about ${tokens} tokens, as much as the ${window}-token context window of model ` +
    `"${agent.model.id}" or more: the conversation is not compacted (that could not make room), and the request is sent as it is. ` +
    'Give the model a larger context (llama-server -c, or the contextWindow setting), fewer tools or a shorter system prompt.';
  return of({ type: 'Warning', runId: run.runId, agentName: run.agentName, code: 'context-window-too-small', message });
}

/**
 * Below this room for the conversation (estimated tokens: the window less the system prompt,
 * the tool schemas and the answer's room), a compaction keeps so little that it comes every few
 * turns: the user is told why, and what to change.
 */
const MIN_CONVERSATION_TOKENS = 1_024;

/**
 * The `context-window-tight` `Warning`, once a run, after a compaction, when the room the window
 * leaves the conversation (`room`) is below {@link MIN_CONVERSATION_TOKENS}; none otherwise.
 * Asked only once a compaction was made, so a run that never compacts is never told.
 */
function tightWarning(scope: RunScope, window: number, requestFixed: number, reserve: number, room: number): () => AgentEvent[] {
  return () => {
    const { run, agent } = scope;
    if (room >= MIN_CONVERSATION_TOKENS || !warnOnce(run, 'context-window-tight')) return [];
    const ratio = tokenRatio(agent.model);
    const tokens = (estimated: number): number => Math.ceil(estimated * ratio);
    const message =
      `The system prompt and tool schemas take about ${tokens(requestFixed)} tokens of the ${window}-token context window of model ` +
      `"${agent.model.id}", and the room kept for the answer about ${reserve} more: about ${tokens(Math.max(0, room))} are left for the conversation, ` +
      'so it is compacted every few turns, its older turns summarised. Give the model a larger context (llama-server -c, or the ' +
      'contextWindow setting), fewer tools, a shorter system prompt or a smaller maxTokens.';
    return [{ type: 'Warning', runId: run.runId, agentName: run.agentName, code: 'context-window-tight', message }];
  };
}

/** True, noting it, when `run` has not given the once-a-run `Warning` `code` yet (see `RunState.warnedOnce`). */
function warnOnce(run: RunScope['run'], code: string): boolean {
  if (run.warnedOnce.has(code)) return false;
  run.warnedOnce.add(code);
  return true;
}

/** The `Warning` that the background results in front of the prompt were cut to fit the window, by how much, and where the rest is. */
function resultsCutWarning(scope: RunScope, window: number, cut: NonNullable<CompactionOutcome['resultsCut']>, archived: boolean): AgentEvent {
  const { run, agent } = scope;
  const message =
    `The background task results in front of this prompt were cut from ${cut.before} to ${cut.after} characters to fit the ${window}-token ` +
    `context window of model "${agent.model.id}" (each keeps its start and end; a note tells the model). The full results stay with their tasks ` +
    `(engine.tasks.get(taskId).result)${archived ? ' and in the session\'s archive' : ''}. Give the model a larger context ` +
    '(llama-server -c, or the contextWindow setting) to have them whole.';
  return { type: 'Warning', runId: run.runId, agentName: run.agentName, code: 'background-results-cut', message };
}

/** How a compaction measures the request a session goes in (see {@link requestSizing}). */
export interface RequestSizing {
  /** The context window in estimated tokens: the server counted the last request this many times higher (or lower). */
  readonly estimatedWindow: number;
  /** What every request sends besides the session (system prompt, tool schemas), as `ContextSize` counts it. */
  readonly requestFixed: number;
  /** `requestFixed` and the room kept for the answer (`answerReserve`, at most half of what `requestFixed` leaves): the part of the window the session cannot have. */
  readonly fixedTokens: number;
}

/**
 * The one measure of a request that sizes every compaction, before a step and on demand
 * alike: a session compacted by another count (without the tool schemas, say) would not fit
 * the next request, or be cut more than it needs.
 *
 * @param system - The system prompt the run's requests start with (none: empty).
 * @param lastStep - The request is the run's last step, which offers no tools.
 */
export function requestSizing(scope: RunScope, system: readonly ChatMessage[], lastStep: boolean, window: number): RequestSizing {
  const requestFixed = estimateRequestTokens({ messages: system, ...(lastStep ? {} : { tools: scope.toolSpecs() }) });
  const estimatedWindow = estimatedWindowOf(scope, window);
  // The answer's room is at most half of what the fixed part leaves: the conversation keeps the other half.
  const reserve = answerReserve(window, maxTokensOf(scope), estimatedWindow - requestFixed);
  return { estimatedWindow, requestFixed, fixedTokens: requestFixed + reserve };
}

/** The `maxTokens` the run's requests send: the agent's, else its model's own default (`ChatModel.settings`), which the server counts beside the prompt all the same. */
function maxTokensOf(scope: RunScope): number | undefined {
  return scope.agent.modelSettings?.maxTokens ?? scope.agent.model.settings?.maxTokens;
}

/** The window in estimated tokens: the server counted the last request this many times higher (or lower). */
function estimatedWindowOf(scope: RunScope, window: number): number {
  return Math.floor(window / tokenRatio(scope.agent.model));
}
