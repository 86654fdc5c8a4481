import type { ChatMessage, ToolMessage } from '../model/chat-message.js';

/** What a model reads for a call whose run stopped before it answered. */
export const INTERRUPTED_TOOL_RESULT = 'ERROR: no result; the run was interrupted before this tool call finished.';

/**
 * Makes a stored history sendable again. A run cancelled (or a process that died) between an
 * assistant's tool calls and their results leaves calls without answers, which
 * OpenAI-compatible servers reject; each gets a tool message saying it was interrupted.
 * Returns the input itself when nothing is missing.
 *
 * @example
 * ```ts
 * const messages = repairHistory(await store.load(sessionId));
 * ```
 */
export function repairHistory(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  let out: ChatMessage[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    out?.push(m);
    if (m.role !== 'assistant' || !m.tool_calls?.length) continue;
    const answered = new Set<string>();
    for (let j = i + 1; j < messages.length; j++) {
      const next = messages[j]!;
      if (next.role !== 'tool') break;
      answered.add(next.tool_call_id);
    }
    const missing = m.tool_calls.filter((c) => !answered.has(c.id));
    if (missing.length === 0) continue;
    out ??= messages.slice(0, i + 1);
    // Answers go right after the existing tool messages of this turn.
    let j = i + 1;
    while (j < messages.length && messages[j]!.role === 'tool') out.push(messages[j++]!);
    for (const c of missing) out.push({ role: 'tool', tool_call_id: c.id, content: INTERRUPTED_TOOL_RESULT } satisfies ToolMessage);
    i = j - 1;
  }
  return out ?? messages;
}
