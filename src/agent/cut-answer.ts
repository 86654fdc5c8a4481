import type { ModelFinish } from '../model/chat-model.js';
import type { AgentScope } from './agent-scope.js';

/**
 * Why a final answer cannot count as one, or undefined when it can: a reply cut by a limit
 * (or withheld by a filter) is never a normal end, even when it has text (a reasoning model
 * that ran out of tokens while thinking has none). The message names the limit that cut it:
 * the agent's `maxTokens` when one is set and the context window was not reached; otherwise
 * the context window (the server's own limit, usually the conversation and the answer
 * filling it), which compaction or a true `contextWindow` setting deals with.
 *
 * @example
 * ```ts
 * cutAnswer(agent, { type: 'finish', text: 'The answer is', toolCalls: [], finishReason: 'length' });
 * ```
 */
export function cutAnswer(agent: AgentScope, answer: ModelFinish): string | undefined {
  const model = agent.model.id;
  if (answer.finishReason === 'content_filter') return `model "${model}" withheld its answer (finish_reason "content_filter")`;
  if (answer.finishReason !== 'length') return undefined;
  const what = answer.text === '' ? 'before it wrote any answer' : 'in the middle of its answer';
  const settings = { ...agent.model.settings, ...agent.modelSettings };
  const window = settings.contextWindow ?? knownWindow(agent);
  const used = answer.usage ? answer.usage.promptTokens + answer.usage.completionTokens : undefined;
  const full = window !== undefined && used !== undefined && used >= window;
  if (settings.maxTokens !== undefined && !full) {
    return `model "${model}" stopped at its token limit (finish_reason "length") ${what}; raise its maxTokens (${settings.maxTokens}) or ask for less`;
  }
  const how = full ? `the prompt and the answer reached its context window of ${window} tokens` : 'no maxTokens is set, so the limit was the server\'s own: usually the context window, filled by the conversation and the answer';
  return (
    `model "${model}" stopped at its context window (finish_reason "length": ${how}) ${what}; ` +
    'compact the conversation (engine.compact(sessionId), or let the engine do it in time by giving the model its real contextWindow) or start the server with a larger context'
  );
}

/** The model's window when it already knows it synchronously (a promise is not waited for here). */
function knownWindow(agent: AgentScope): number | undefined {
  const known = agent.model.contextWindow?.();
  return typeof known === 'number' ? known : undefined;
}
