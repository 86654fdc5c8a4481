import type { ChatMessage } from './chat-message.js';
import type { ChatRequest, ToolSpec } from './chat-model.js';

/**
 * The characters the estimate counts as one token. Whatever is sized in tokens by this
 * estimate (a summary's limit, a pruned output) converts with it, so the two agree.
 */
export const CHARS_PER_TOKEN = 4;

/**
 * A cheap token estimate (about four characters per token) of messages alone, for parts of a
 * conversation and scripted usage. Whatever judges a whole request (whether it fits the
 * window, what it is charged) uses {@link estimateRequestTokens}, which adds its tools. Real
 * usage comes from the server.
 *
 * @example
 * ```ts
 * estimateTokens([{ role: 'user', content: 'hello world' }]); // 3
 * ```
 */
export function estimateTokens(messages: readonly ChatMessage[]): number {
  let chars = 0;
  for (const m of messages) {
    chars += 4 + (m.content?.length ?? 0);
    if (m.role === 'assistant' && m.tool_calls) {
      for (const c of m.tool_calls) chars += c.function.name.length + c.function.arguments.length;
    }
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/**
 * The estimate for a whole request: its messages and the tools it offers (their names,
 * descriptions and JSON schemas are part of the prompt too, often the larger part).
 *
 * @example
 * ```ts
 * estimateRequestTokens({ messages, tools });
 * ```
 */
export function estimateRequestTokens(request: ChatRequest): number {
  return estimateTokens(request.messages) + (request.tools ? toolTokens(request.tools) : 0);
}

/** The estimate of each tool list, counted once: a run offers the same array at every step while its tools stay the same. */
const tokensByList = new WeakMap<readonly ToolSpec[], number>();
/**
 * The characters of each tool spec, counted once: a spec object is shared by every run that
 * offers the same tool (`sharedToolSpec`), so a new run's list (a new array of known specs)
 * does not serialize their schemas again: that was the costliest step of a run's start.
 */
const charsBySpec = new WeakMap<ToolSpec, number>();

function toolTokens(tools: readonly ToolSpec[]): number {
  let tokens = tokensByList.get(tools);
  if (tokens === undefined) {
    let chars = 0;
    for (const t of tools) {
      let own = charsBySpec.get(t);
      if (own === undefined) charsBySpec.set(t, (own = 16 + t.name.length + t.description.length + JSON.stringify(t.parameters).length));
      chars += own;
    }
    tokensByList.set(tools, (tokens = Math.ceil(chars / CHARS_PER_TOKEN)));
  }
  return tokens;
}
