import type { ChatMessage } from '../../src/model/chat-message.js';

/**
 * What a strict chat template would refuse in a conversation, modelled on Mistral-Nemo's
 * (`templates/mistralai-Mistral-Nemo-Instruct-2407.jinja` of the llama.cpp lane): after an
 * optional leading system message, "conversation roles must alternate
 * user/assistant/user/assistant/...", skipping tool messages and assistant messages that call
 * tools; and, as every OpenAI-compatible server demands, each tool call is answered by the
 * tool messages right after it, and a tool message answers a call of that assistant message.
 * Empty when the conversation is accepted.
 */
export function strictTemplateProblems(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  let alternation = 0;
  let open = new Set<string>();
  for (const [i, m] of messages.entries()) {
    if (m.role === 'tool') {
      if (!open.delete(m.tool_call_id)) problems.push(`message ${i}: tool result for ${m.tool_call_id}, which no call right before it made`);
      continue;
    }
    for (const id of open) problems.push(`message ${i}: tool call ${id} has no result before it`);
    open = new Set(m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []);
    if (m.role === 'system') {
      if (i !== 0) problems.push(`message ${i}: a system message after the start`);
      continue;
    }
    if (m.role === 'assistant' && m.tool_calls?.length) continue; // skipped by the alternation rule
    const expected = alternation % 2 === 0 ? 'user' : 'assistant';
    if (m.role !== expected) problems.push(`message ${i}: ${m.role} where roles must alternate and ${expected} comes next`);
    alternation++;
  }
  for (const id of open) problems.push(`end: tool call ${id} has no result`);
  return problems;
}

/**
 * What a strict template would refuse when the stored history `history` is sent with a next
 * prompt after it (as the next turn does): the history must also end on an assistant answer.
 */
export function nextTurnProblems(history: readonly ChatMessage[]): string[] {
  return strictTemplateProblems([...history, { role: 'user', content: '(the next prompt)' }]);
}
