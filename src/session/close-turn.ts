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
 * The assistant message that closes a turn which ended without an answer, saying why: the
 * user's question stays in the conversation, and the next user message follows an assistant
 * one, as strict chat templates (Mistral's "roles must alternate") demand.
 *
 * @example
 * ```ts
 * unfinishedTurn('the model failed: HTTP 500'); // "(No answer: this turn did not finish: the model failed: HTTP 500.)"
 * ```
 */
export function unfinishedTurn(reason: string): string {
  const trimmed = reason.trim().replace(/[.\s]+$/, '');
  // A long server error would crowd the conversation the model reads next.
  const why = trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed;
  return why === '' ? UNANSWERED_TURN : `(No answer: this turn did not finish: ${why}.)`;
}

/**
 * The messages that close a turn stopped before its answer, given the turn's saved messages
 * (its user message first): an interrupted result for each call of the last assistant
 * message that has none, then an assistant message saying the turn did not finish (and why)
 * when the turn does not already end in one. Empty when the turn needs nothing (it ended on
 * an answer) or nothing of it was saved.
 *
 * @example
 * ```ts
 * closingMessages([{ role: 'user', content: 'Hi' }], 'the run was cancelled');
 * // [{ role: 'assistant', content: '(No answer: this turn did not finish: the run was cancelled.)' }]
 * ```
 */
export function closingMessages(turn: readonly ChatMessage[], reason: string): ChatMessage[] {
  const last = turn.at(-1);
  if (last === undefined) return [];
  const closing: ChatMessage[] = [];
  const caller = lastCaller(turn);
  if (caller) {
    const answered = new Set(turn.slice(caller.index + 1).map((m) => (m.role === 'tool' ? m.tool_call_id : '')));
    for (const id of caller.ids) {
      if (!answered.has(id)) closing.push({ role: 'tool', tool_call_id: id, content: INTERRUPTED_TOOL_RESULT } satisfies ToolMessage);
    }
  }
  const end = closing.at(-1) ?? last;
  if (end.role === 'user' || end.role === 'tool' || (end.role === 'assistant' && end.tool_calls?.length)) {
    closing.push({ role: 'assistant', content: unfinishedTurn(reason) });
  }
  return closing;
}

/** The last assistant message of the turn, when only tool messages follow it and it called tools. */
function lastCaller(turn: readonly ChatMessage[]): { index: number; ids: readonly string[] } | undefined {
  for (let i = turn.length - 1; i >= 0; i--) {
    const m = turn[i]!;
    if (m.role === 'tool') continue;
    if (m.role === 'assistant' && m.tool_calls?.length) return { index: i, ids: m.tool_calls.map((c) => c.id) };
    return undefined;
  }
  return undefined;
}
