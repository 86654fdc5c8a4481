import type { ChatMessage } from './chat-message.js';

/**
 * A cheap token estimate (about four characters per token), for context-size events and
 * scripted usage. Real usage comes from the server.
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
  return Math.ceil(chars / 4);
}
