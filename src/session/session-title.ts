import type { ChatMessage } from '../model/chat-message.js';

/** How long a session's title may be, in UTF-16 code units. */
const TITLE_CHARS = 80;

/**
 * The title of a conversation (`SessionSummary.title`): its first user message on one line,
 * cut to 80 characters with `…`; `''` when it has none. Only the start of a long message is
 * looked at (the stores title every session they write).
 *
 * @example
 * ```ts
 * sessionTitle([{ role: 'user', content: 'Survey\nthis project' }]); // 'Survey this project'
 * ```
 */
export function sessionTitle(messages: readonly ChatMessage[]): string {
  const first = messages.find((message) => message.role === 'user');
  const content = typeof first?.content === 'string' ? first.content : '';
  // A longer start until the line passes the title's length (whitespace runs shrink it), or the whole.
  for (let take = 512; ; take *= 4) {
    const line = oneLine(content.slice(0, take));
    if (line.length > TITLE_CHARS) return `${line.slice(0, TITLE_CHARS - 1)}…`;
    if (take >= content.length) return line;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
