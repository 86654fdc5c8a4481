import type { ChatMessage } from '../model/chat-message.js';

/** How long a session's title may be, in UTF-16 code units. */
const TITLE_CHARS = 80;

/**
 * The title of a conversation (`SessionSummary.title`): its first user message on one line,
 * cut to 80 characters with `…`; `''` when it has none.
 *
 * @example
 * ```ts
 * sessionTitle([{ role: 'user', content: 'Survey\nthis project' }]); // 'Survey this project'
 * ```
 */
export function sessionTitle(messages: readonly ChatMessage[]): string {
  const first = messages.find((message) => message.role === 'user');
  const line = (first?.content ?? '').replace(/\s+/g, ' ').trim();
  return line.length <= TITLE_CHARS ? line : `${line.slice(0, TITLE_CHARS - 1)}…`;
}
