import type { ChatMessage } from '../../model/chat-message.js';
import { estimateTokens } from '../../model/estimate-tokens.js';
import { blockWithText, promptOf, REQUEST, summaryBlock } from './summary-block.js';

/**
 * Where to cut a session for a summary: the index of the first message kept, or `undefined`
 * when nothing can be summarised. A cut is made only before a user message (a turn's start)
 * or, inside the turn being worked on (from the last user message on), before an assistant
 * message (a step's start), so an assistant's tool calls and their results are never parted,
 * and an earlier turn is summarised whole: cut inside, it would carry its prompt into the
 * summary message ({@link withSummary}), and an old prompt too long for the window would
 * never be summarised away. The cut keeps as much of the newest part as fits `keepTokens`,
 * the prompt a cut inside the current turn carries counted in it, and at least the last
 * step; for a `manual` compaction it is the start of the last turn.
 *
 * @example
 * ```ts
 * chooseCut(messages, 2000, false); // 14: messages 0..13 are summarised
 * ```
 */
export function chooseCut(messages: readonly ChatMessage[], keepTokens: number, manual: boolean): number | undefined {
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  if (manual) return lastUser > 0 ? lastUser : undefined;
  const starts: number[] = [];
  for (let i = 1; i < messages.length; i++) {
    const role = messages[i]!.role;
    if (role === 'user' || (role === 'assistant' && i > lastUser)) starts.push(i);
  }
  if (starts.length === 0) return undefined;
  // What a cut before an assistant message (of the current turn) carries: the turn's prompt.
  const carried = carriedTokens(promptBefore(messages, messages.length));
  const cost = (cut: number, tail: number): number => tail + (messages[cut]!.role === 'assistant' ? carried : 0);
  // Grow the kept part from the newest start back while it fits.
  let cut = starts.at(-1)!;
  let tail = estimateTokens(messages.slice(cut));
  for (let k = starts.length - 2; k >= 0; k--) {
    const start = starts[k]!;
    const more = tail + estimateTokens(messages.slice(start, cut));
    if (cost(start, more) > keepTokens) break;
    tail = more;
    cut = start;
  }
  return cut;
}

/**
 * What the session keeps beside the summary after a cut at `cut`, in estimated tokens: the
 * kept messages and, for a cut inside a turn, that turn's prompt, which the summary message
 * carries; with `heading`, the summary message's heading too (then it is the whole session
 * after the cut but for the summary's own text).
 */
export function keptTokens(messages: readonly ChatMessage[], cut: number, heading: boolean): number {
  if (heading) return estimateTokens(withSummary(messages, cut, ''));
  const inside = messages[cut]?.role !== 'user';
  return estimateTokens(messages.slice(cut)) + (inside ? carriedTokens(promptBefore(messages, cut)) : 0);
}

/**
 * The session after a cut at `cut`: one user message with the summary (and, when the cut
 * falls inside a turn, that turn's prompt after it), then the kept messages. The first kept
 * message is a user message, as before the cut, so roles still alternate.
 */
export function withSummary(messages: readonly ChatMessage[], cut: number, summary: string): ChatMessage[] {
  const block = summaryBlock(cut, summary);
  const first = messages[cut]!;
  if (first.role === 'user') return [{ role: 'user', content: blockWithText(block, first.content, false) }, ...messages.slice(cut + 1)];
  // A cut inside a turn: its prompt goes with the summary, so the model still sees what it works on.
  const prompt = promptBefore(messages, cut);
  const content = prompt === undefined || prompt === '' ? block : blockWithText(block, prompt, true);
  return [{ role: 'user', content }, ...messages.slice(cut)];
}

/**
 * The prompt of the turn a cut at `cut` falls in: the last user message before it, without an
 * earlier summary. Only the session's first message can carry one (a compaction puts it
 * there): any later user message is a prompt as typed, whole, even one pasted with a block.
 */
function promptBefore(messages: readonly ChatMessage[], cut: number): string | undefined {
  for (let i = cut - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user') return i === 0 ? promptOf(m.content) : m.content;
  }
  return undefined;
}

/** The tokens a carried prompt adds to the summary message. */
function carriedTokens(prompt: string | undefined): number {
  return prompt === undefined || prompt === '' ? 0 : estimateTokens([{ role: 'user', content: `${REQUEST}${prompt}` }]);
}

