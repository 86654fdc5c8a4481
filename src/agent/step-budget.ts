import type { AgentEvent } from '../events/agent-event.js';
import type { ChatMessage } from '../model/chat-message.js';
import type { ModelFinish } from '../model/chat-model.js';
import { estimateTokens } from '../model/estimate-tokens.js';
import type { BudgetState, TokenBudget } from '../model/token-budget.js';
import type { RunScope } from './run-scope.js';

/**
 * What a step cost: the server's count of the request and the reply, or, from a server that
 * reports none, an estimate (four characters a token).
 */
export function stepTokens(messages: readonly ChatMessage[], answer: ModelFinish): number {
  return answer.usage?.totalTokens ?? estimateTokens(messages) + Math.ceil(answer.text.length / 4);
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
