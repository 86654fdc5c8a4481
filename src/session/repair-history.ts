import type { AssistantMessage, ChatMessage, ToolMessage } from '../model/chat-message.js';
import { INTERRUPTED_TOOL_RESULT, UNANSWERED_TURN } from './close-turn.js';

export { INTERRUPTED_TOOL_RESULT, UNANSWERED_TURN } from './close-turn.js';

/** The user message put before an assistant message that opens a stored conversation. */
export const MISSING_QUESTION = '(The start of this conversation is not available.)';

/** A stored history made sendable, and what was changed (empty when nothing was). */
export interface RepairedHistory {
  /** The messages to send (the input itself when nothing changed). */
  readonly messages: readonly ChatMessage[];
  /** One phrase per kind of repair, e.g. "closed 1 turn that had no answer". */
  readonly repairs: readonly string[];
}

/**
 * Makes a stored history sendable to every OpenAI-compatible server and strict chat template:
 * after any system message, user and assistant messages alternate (Mistral's "conversation
 * roles must alternate user/assistant/user/assistant"), an assistant's tool calls are
 * answered by the tool messages right after it, and the history ends with an assistant
 * message, so the next prompt can follow. The current version never stores anything else
 * (a failed turn is closed when it fails, see `closingMessages`), but an older version, a
 * crash or another program may have:
 *
 * - calls without answers (a run stopped between a call and its result) get
 *   {@link INTERRUPTED_TOOL_RESULT}, right after the answers that exist;
 * - a tool message that answers no call of the assistant message before it is dropped;
 * - a turn with no answer (a user message or tool results followed by a user message, or
 *   the end) gets one, {@link UNANSWERED_TURN};
 * - two assistant messages in a row are merged into one;
 * - an assistant message that opens the conversation gets {@link MISSING_QUESTION} before it.
 *
 * System messages are left where they are.
 *
 * @example
 * ```ts
 * const { messages, repairs } = repairStoredHistory(await store.load(sessionId));
 * ```
 */
export function repairStoredHistory(messages: readonly ChatMessage[]): RepairedHistory {
  const out: ChatMessage[] = [];
  const counts = { answered: 0, dropped: 0, closed: 0, merged: 0, opened: 0 };
  /** The calls of the latest assistant message still waiting for their answer. */
  let waiting: Set<string> | undefined;
  /** True while a turn is open: a user message (or tool results) still waiting for an answer. */
  let open = false;
  const answerTheRest = (): void => {
    for (const id of waiting ?? []) out.push({ role: 'tool', tool_call_id: id, content: INTERRUPTED_TOOL_RESULT } satisfies ToolMessage);
    counts.answered += waiting?.size ?? 0;
    waiting = undefined;
  };
  const close = (): void => {
    if (!open) return;
    out.push({ role: 'assistant', content: UNANSWERED_TURN });
    counts.closed++;
    open = false;
  };
  for (const m of messages) {
    if (m.role === 'tool') {
      if (waiting?.delete(m.tool_call_id)) out.push(m);
      else counts.dropped++;
      continue;
    }
    answerTheRest();
    if (m.role === 'system') {
      out.push(m);
    } else if (m.role === 'user') {
      close();
      out.push(m);
      open = true;
    } else {
      const previous = out.at(-1);
      if (!open && previous?.role === 'assistant' && !previous.tool_calls?.length) {
        out[out.length - 1] = mergeAssistants(previous.content ?? '', m);
        counts.merged++;
      } else {
        if (!open) {
          out.push({ role: 'user', content: MISSING_QUESTION });
          counts.opened++;
        }
        out.push(m);
      }
      const calls = m.tool_calls ?? [];
      open = calls.length > 0;
      if (open) waiting = new Set(calls.map((c) => c.id));
    }
  }
  answerTheRest();
  close();
  const repairs = describeRepairs(counts);
  return { messages: repairs.length ? out : messages, repairs };
}

/**
 * {@link repairStoredHistory}'s messages alone. Returns the input itself when nothing had to change.
 *
 * @example
 * ```ts
 * const messages = repairHistory(await store.load(sessionId));
 * ```
 */
export function repairHistory(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  return repairStoredHistory(messages).messages;
}

/** `second` with `firstText` in front of its text (its tool calls kept). */
function mergeAssistants(firstText: string, second: AssistantMessage): AssistantMessage {
  const text = [firstText, second.content ?? ''].filter((t) => t !== '').join('\n\n');
  return second.tool_calls?.length ? { ...second, content: text || null } : { ...second, content: text };
}

function describeRepairs(c: { answered: number; dropped: number; closed: number; merged: number; opened: number }): string[] {
  const repairs: string[] = [];
  if (c.answered) repairs.push(`answered ${c.answered} interrupted tool call(s)`);
  if (c.dropped) repairs.push(`dropped ${c.dropped} tool result(s) that answered no call`);
  if (c.closed) repairs.push(`closed ${c.closed} turn(s) that had no answer`);
  if (c.merged) repairs.push(`merged ${c.merged} assistant message(s) that followed another`);
  if (c.opened) repairs.push('put a placeholder question before the assistant message that opened it');
  return repairs;
}
