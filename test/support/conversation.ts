import type { ChatMessage } from '../../src/model/chat-message.js';

/**
 * What an OpenAI-compatible server would reject in a conversation: an assistant's tool call
 * not answered by the tool messages right after it, or a tool message answering nothing.
 * Empty when the conversation is valid.
 */
export function conversationProblems(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  let open = new Set<string>();
  for (const [i, m] of messages.entries()) {
    if (m.role === 'tool') {
      if (!open.delete(m.tool_call_id)) problems.push(`message ${i}: tool result for unknown call ${m.tool_call_id}`);
      continue;
    }
    for (const id of open) problems.push(`message ${i}: tool call ${id} has no result`);
    open = new Set(m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []);
  }
  for (const id of open) problems.push(`end: tool call ${id} has no result`);
  return problems;
}
