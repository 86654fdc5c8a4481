import type { AgentEvent } from '../events/agent-event.js';
import type { ModelFinish, TokenUsage } from '../model/chat-model.js';
import { contextExceeded } from '../model/context-exceeded.js';
import { CHARS_PER_TOKEN } from '../model/estimate-tokens.js';
import { partialReplyOf } from '../model/partial-reply.js';
import type { BudgetState, TokenBudget } from '../model/token-budget.js';
import type { RunScope } from './run-scope.js';

/** What a step cost, and whether it is an estimate rather than the server's count. */
export interface StepTokens {
  readonly tokens: number;
  readonly estimated: boolean;
}

/**
 * What a step cost: the server's count of the request and the reply (its total, or the sum of
 * its prompt and completion counts when that is larger), or an estimate from a
 * server that reports none, or 0 tokens for a request that sent a prompt (some servers send
 * a usage of zeros): a budget charged nothing would never end a run. The estimate is
 * `requestTokens` (the whole request's, `estimateRequestTokens`: the tool schemas it offered
 * are part of the prompt, often most of it) and the reply's text.
 */
export function stepTokens(requestTokens: number, answer: ModelFinish): StepTokens {
  const reported = reportedTokens(answer.usage);
  if (reported > 0) return { tokens: reported, estimated: false };
  return { tokens: estimatedTokens(requestTokens, answer.text.length), estimated: true };
}

/**
 * The tokens a server's `usage` counts (0 without one): the larger of its total and its parts,
 * since a total below its own parts (a server that lies, or miscounts) would otherwise charge
 * a request almost nothing, and the budget never end a run.
 */
function reportedTokens(usage: TokenUsage | undefined): number {
  return usage === undefined ? 0 : Math.max(usage.totalTokens, usage.promptTokens + usage.completionTokens);
}

/**
 * The estimate of a request whose server reported no usage: `requestTokens` (the whole
 * request's, `estimateRequestTokens`) and `replyChars` characters of reply (about
 * `CHARS_PER_TOKEN` a token). Also what a request that failed, or a summary abandoned,
 * after its reply began is charged when no usage came before.
 */
export function estimatedTokens(requestTokens: number, replyChars: number): number {
  return requestTokens + Math.ceil(replyChars / CHARS_PER_TOKEN);
}

/**
 * What a request that failed with `error` is charged, once its response had begun (the
 * server answered 2xx, so it took the prompt: a stream cut or gone silent, an error sent
 * inside it, a reply abandoned at its size limit, a JSON completion cut, unreadable or too
 * large, a 2xx without a body): the usage the server sent before the failure when it sent one
 * (what it billed), else the estimate of its prompt and of what was read. `streamed`: the
 * characters of the deltas the caller counted for a model that marks nothing on its errors
 * (one of the user's own, see `marksPartialReplies`), or undefined when none came; the
 * built-in model's reader counts them itself. Nothing for a request whose response never
 * began (a refused connection, an error status, even a 5xx: retried, or ending the run, and
 * most say nothing was done) nor for a prompt refused as too long.
 */
export function failedRequestTokens(error: unknown, requestTokens: number, streamed: number | undefined): number {
  const reply = partialReplyOf(error);
  if ((reply === undefined && streamed === undefined) || contextExceeded(error)) return 0;
  const billed = reportedTokens(reply?.usage);
  return billed > 0 ? billed : estimatedTokens(requestTokens, Math.max(reply?.chars ?? 0, streamed ?? 0));
}

/** The `Warning` that a run's budget was charged estimates (once per run: the server's usage is missing for all its requests alike). */
export function usageEstimatedWarning(scope: RunScope): AgentEvent {
  const { run } = scope;
  const message =
    'The model server reported no token usage (or 0 tokens) for a request; the token budget is charged an estimate instead ' +
    `(about ${CHARS_PER_TOKEN} characters a token), for this and any later such request of the run.`;
  return { type: 'Warning', runId: run.runId, agentName: run.agentName, code: 'usage-estimated', message };
}

/** The `Budget` event that reports what is left after step `step`. */
export function budgetEvent(scope: RunScope, step: number, state: BudgetState): AgentEvent {
  const { run } = scope;
  return { type: 'Budget', runId: run.runId, agentName: run.agentName, step, limit: state.limit, used: state.used, remaining: state.remaining };
}

/** The abnormal end of a run whose last request took what was left of its budget (and was made without tools). */
export function budgetError(state: BudgetState): string {
  return `the token budget is spent: ${state.used} of ${state.limit} tokens used by this run and its tasks, so its last step was made without tools`;
}

/** The abnormal end of a run refused a request: nothing was left once the requests in flight were counted. */
export function budgetRefused(budget: TokenBudget): string {
  const { limit, used } = budget.binding();
  const held = Math.max(0, budget.remaining());
  const inFlight = held > 0 ? ` (the ${held} left are held by requests in flight)` : '';
  return `the token budget is spent: ${used} of ${limit} tokens used by this run and its tasks${inFlight}, so no further model request was made`;
}
