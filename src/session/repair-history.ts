import type { ChatMessage, ToolMessage } from '../model/chat-message.js';

/** What a model reads for a call whose run stopped before it answered. */
export const INTERRUPTED_TOOL_RESULT = 'ERROR: no result; the run was interrupted before this tool call finished.';

/**
 * The assistant turn put after tool results that no answer followed (the run stopped
 * there): templates that insist on alternating turns (Mistral's) refuse a user message
 * right after tool results.
 */
export const UNANSWERED_TURN = '(No answer: the run stopped before I replied.)';

/**
 * Makes a stored history sendable again; OpenAI-compatible servers reject a conversation in
 * which a tool call has no answer, or an answer has no call.
 *
 * - A run cancelled (or a process that died) between an assistant's tool calls and their
 *   results leaves calls without answers: each gets a tool message saying it was interrupted,
 *   right after the answers that exist.
 * - A tool message that answers no call of the assistant message before it (its call was
 *   skipped as malformed, or it repeats an answer) is dropped.
 * - Tool results that no assistant turn followed (the run stopped after them) get one,
 *   {@link UNANSWERED_TURN}, so the next user message does not follow a tool message.
 *
 * Returns the input itself when nothing had to change.
 *
 * @example
 * ```ts
 * const messages = repairHistory(await store.load(sessionId));
 * ```
 */
export function repairHistory(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  const out: ChatMessage[] = [];
  let changed = false;
  /** The calls of the latest assistant message still waiting for their answer. */
  let waiting: Set<string> | undefined;
  const answerTheRest = (): void => {
    if (!waiting?.size) return;
    for (const id of waiting) out.push({ role: 'tool', tool_call_id: id, content: INTERRUPTED_TOOL_RESULT } satisfies ToolMessage);
    changed = true;
  };
  const closeTurn = (): void => {
    if (out.at(-1)?.role !== 'tool') return;
    out.push({ role: 'assistant', content: UNANSWERED_TURN });
    changed = true;
  };
  for (const m of messages) {
    if (m.role === 'tool') {
      if (waiting?.delete(m.tool_call_id)) out.push(m);
      else changed = true; // answers nothing: dropped
      continue;
    }
    answerTheRest();
    if (m.role !== 'assistant') closeTurn();
    waiting = m.role === 'assistant' && m.tool_calls?.length ? new Set(m.tool_calls.map((c) => c.id)) : undefined;
    out.push(m);
  }
  answerTheRest();
  closeTurn();
  return changed ? out : messages;
}
