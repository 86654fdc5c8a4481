import type { ChatMessage } from '../../model/chat-message.js';
import { estimateTokens } from '../../model/estimate-tokens.js';

/**
 * Where to cut a session for a summary: the index of the first message kept, or `undefined`
 * when nothing can be summarised. A cut is made only before a user message (a turn's start)
 * or an assistant message (a step's start), so an assistant's tool calls and their results
 * are never parted. The cut keeps as much of the newest part as fits `keepTokens`, and at
 * least the last step; for a `manual` compaction it is the start of the last turn.
 *
 * @example
 * ```ts
 * chooseCut(messages, 2000, false); // 14: messages 0..13 are summarised
 * ```
 */
export function chooseCut(messages: readonly ChatMessage[], keepTokens: number, manual: boolean): number | undefined {
  const starts: number[] = [];
  for (let i = 1; i < messages.length; i++) {
    const role = messages[i]!.role;
    if (role === 'user' || role === 'assistant') starts.push(i);
  }
  if (starts.length === 0) return undefined;
  if (manual) {
    const lastUser = starts.filter((i) => messages[i]!.role === 'user').at(-1);
    return lastUser;
  }
  // Grow the kept part from the newest start back while it fits.
  let cut = starts.at(-1)!;
  let tail = estimateTokens(messages.slice(cut));
  for (let k = starts.length - 2; k >= 0; k--) {
    const start = starts[k]!;
    const more = estimateTokens(messages.slice(start, cut));
    if (tail + more > keepTokens) break;
    tail += more;
    cut = start;
  }
  return cut;
}

/** The first words of the message that carries a summary. */
export const SUMMARY_HEADING = '[Summary of the earlier conversation';
const SUMMARY_END = '[End of summary]';
const REQUEST = '[The request being worked on]\n';

/**
 * The session after a cut at `cut`: one user message with the summary (and, when the cut
 * falls inside a turn, that turn's prompt after it), then the kept messages. The first kept
 * message is a user message, as before the cut, so roles still alternate.
 */
export function withSummary(messages: readonly ChatMessage[], cut: number, summary: string): ChatMessage[] {
  const block = `${SUMMARY_HEADING}: ${cut} messages, compacted to fit the context window; the full transcript is archived]\n${summary.trim()}\n${SUMMARY_END}`;
  const first = messages[cut]!;
  if (first.role === 'user') return [{ role: 'user', content: `${block}\n\n${first.content}` }, ...messages.slice(cut + 1)];
  // A cut inside a turn: its prompt goes with the summary, so the model still sees what it works on.
  let prompt: string | undefined;
  for (let i = cut - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user') {
      prompt = promptOf(m.content);
      break;
    }
  }
  const content = prompt === undefined || prompt === '' ? block : `${block}\n\n${REQUEST}${prompt}`;
  return [{ role: 'user', content }, ...messages.slice(cut)];
}

/** A user message's prompt without an earlier summary in front of it (that summary is summarised again). */
function promptOf(content: string): string {
  if (!content.startsWith(SUMMARY_HEADING)) return content;
  const end = content.lastIndexOf(`${SUMMARY_END}\n\n`);
  if (end < 0) return '';
  const rest = content.slice(end + SUMMARY_END.length + 2);
  return rest.startsWith(REQUEST) ? rest.slice(REQUEST.length) : rest;
}
