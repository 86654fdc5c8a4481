import type { ChatMessage } from '../../model/chat-message.js';
import { CHARS_PER_TOKEN } from '../../model/estimate-tokens.js';
import { clipMiddle } from '../../text/clip-middle.js';
import { contentText, entryWith, readBlock, RESULTS_BLOCK_CLOSE, RESULTS_BLOCK_OPEN, writtenLength } from './results-block.js';

// The block's lines, where the engine (background-results.ts) has always imported them from.
export { RESULTS_BLOCK_CLOSE, RESULTS_BLOCK_OPEN } from './results-block.js';

/** A prompt whose background results were cut to fit, and by how much. */
export interface ClippedResults {
  /** The prompt's new text: the block with each result cut to its share, a note, then the prompt as it was. */
  readonly content: string;
  /** The characters of the results' contents before the cut. */
  readonly before: number;
  /** After it (the markers where they were cut included). */
  readonly after: number;
}

/**
 * A prompt (a user message's text) that starts with the engine's block of background results,
 * cut to at most about `maxChars` characters, or `undefined` when it has no such block or is
 * no longer. Only the results' contents are cut: each keeps an even share of what the rest of
 * the prompt leaves (what a short one does not need goes to the longer ones), its start and end
 * around a `[... N characters cut ...]` marker; every result keeps its line (task id, agent,
 * description), and a note at the end of the block says how much was cut and how to get the
 * rest, so the model knows and can ask. The prompt the user typed stays whole.
 *
 * @example
 * ```ts
 * clipPromptResults(user.content, 20_000)?.content; // '<background_task_results>\n<task_result>…[... 9120 characters cut ...]…'
 * ```
 */
export function clipPromptResults(content: string, maxChars: number): ClippedResults | undefined {
  if (content.length <= maxChars) return undefined;
  const read = readBlock(content);
  if (!read) return undefined;
  const { rest } = read;
  // Cut before (a compaction after a refusal cuts further): its note goes, and the new one counts from the results as they came.
  const earlier = read.parts.flatMap((p) => ('line' in p && p.line.startsWith(NOTE_START) ? [p.line] : []))[0];
  const parts = read.parts.filter((p) => !('line' in p && p.line === earlier));
  const entries = parts.flatMap((p) => ('body' in p ? [p] : []));
  const texts = entries.map((e) => contentText(e.body));
  const now = texts.reduce((sum, t) => sum + t.length, 0);
  if (now === 0) return undefined;
  const before = earlier === undefined ? now : Number(/^\d+/.exec(earlier.slice(NOTE_START.length))?.[0] ?? now);
  const overhead = content.length - (earlier === undefined ? 0 : earlier.length + 1) - entries.reduce((sum, e) => sum + e.body.length, 0);
  const shares = evenShares(texts.map(writtenLength), Math.max(0, maxChars - overhead - cutNote(before, before).length - 1));
  const cut = texts.map((t, i) => writtenWithin(t, shares[i]!));
  const after = cut.reduce((sum, t) => sum + t.length, 0);
  if (after >= now) return undefined;
  let k = 0;
  const lines = parts.map((p) => ('body' in p ? entryWith(p.head, cut[k++]!) : p.line));
  return { content: [RESULTS_BLOCK_OPEN, ...lines, cutNote(before, after), RESULTS_BLOCK_CLOSE].join('\n') + rest, before, after };
}

/** How the note of a cut starts. */
const NOTE_START = '(These background task results were cut from ';

/** The note in the block that says the results were cut, by how much, and how to get the rest. */
function cutNote(before: number, after: number): string {
  return (
    `${NOTE_START}${before} to ${after} characters to fit the context window: ` +
    'each cut result keeps its start and end around a "[... N characters cut ...]" marker. The full results stay with their tasks: ' +
    'resume a task (its task_id) to ask it for the part you need, or tell the user that the results were cut.)'
  );
}

/** Shares of `total` for texts of `lengths`: even, and what a shorter text does not need goes to the longer ones. */
function evenShares(lengths: readonly number[], total: number): number[] {
  const shares = lengths.map(() => 0);
  let left = total;
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]!);
  order.forEach((i, n) => {
    const share = Math.floor(left / (order.length - n));
    shares[i] = Math.min(lengths[i]!, share);
    left -= shares[i]!;
  });
  return shares;
}

/**
 * `text` cut to be written in at most `max` characters: its start and end around the marker,
 * or the marker alone when too little is left for them. A text of `]]>`s is written up to five
 * times as long as it reads, so the cut shrinks by how much the last one overran, a few times at most.
 */
function writtenWithin(text: string, max: number): string {
  if (writtenLength(text) <= max) return text;
  let room = max;
  for (let tries = 0; tries < 8 && room >= 80; tries++) {
    const cut = text.length <= room ? text : clipMiddle(text, room);
    const written = writtenLength(cut);
    if (written <= max) return cut;
    room = Math.floor((room * max) / written) - 1;
  }
  return `[... ${text.length} characters cut ...]`;
}

/**
 * `messages` with the background results in front of the last prompt cut
 * ({@link clipPromptResults}) so that this prompt takes at most `maxTokens` as the estimate
 * counts; `undefined` when it holds no results or takes no more. `typed`: the prompt as given
 * (`RunInput.prompt`), which the last user message ends with. Only a block in front of it is
 * the engine's: a prompt that itself starts like the block (pasted) is the user's text, kept
 * whole, and without `typed` nothing is cut.
 */
export function fitPromptResults(
  messages: readonly ChatMessage[],
  maxTokens: number,
  typed: string | undefined,
): { messages: ChatMessage[]; before: number; after: number } | undefined {
  const at = messages.findLastIndex((m) => m.role === 'user');
  const prompt = messages[at];
  if (prompt?.role !== 'user' || typed === undefined) return undefined;
  // The engine writes its block, a blank line, then the prompt: no longer than it, no block.
  const { content } = prompt;
  if (content.length <= typed.length || !content.endsWith(typed)) return undefined;
  // The estimate counts four characters of overhead a message; the cut reads only what is in front of the prompt.
  const room = Math.max(0, maxTokens * CHARS_PER_TOKEN - 4 - typed.length);
  const clipped = clipPromptResults(content.slice(0, content.length - typed.length), room);
  if (!clipped) return undefined;
  const cut = { ...prompt, content: clipped.content + typed };
  return { messages: messages.map((m, i) => (i === at ? cut : m)), before: clipped.before, after: clipped.after };
}
