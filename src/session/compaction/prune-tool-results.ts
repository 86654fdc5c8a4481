import type { ChatMessage } from '../../model/chat-message.js';
import { CHARS_PER_TOKEN, estimateTokens } from '../../model/estimate-tokens.js';

/** What a pruned tool result says instead of its output. */
export function prunedNote(chars: number): string {
  return `[output pruned to save context: this tool result (${chars} characters) is no longer shown]`;
}

const PRUNED = /^\[output pruned to save context: /;

/**
 * Replaces the output of old tool results by a short note, oldest first, until the session
 * is estimated at `target` tokens or less (`target` 0: every one that may go). The results
 * after the last assistant message (what the model has just asked for and not read yet)
 * and, with `keepFrom`, every result from that index on are kept.
 *
 * @example
 * ```ts
 * pruneToolResults(messages, 3000); // { messages, pruned: 4 }
 * ```
 */
export function pruneToolResults(messages: readonly ChatMessage[], target: number, keepFrom = messages.length): { messages: ChatMessage[]; pruned: number } {
  const out = messages.slice();
  let lastAssistant = -1;
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i]!.role === 'assistant') {
      lastAssistant = i;
      break;
    }
  }
  const protectedFrom = Math.min(keepFrom, lastAssistant < 0 ? out.length : lastAssistant + 1);
  let tokens = estimateTokens(out);
  let pruned = 0;
  for (let i = 0; i < protectedFrom && tokens > target; i++) {
    const m = out[i]!;
    if (m.role !== 'tool' || PRUNED.test(m.content)) continue;
    const note = prunedNote(m.content.length);
    if (note.length + 16 >= m.content.length) continue; // short already: a note would save nothing
    out[i] = { ...m, content: note };
    tokens -= Math.floor((m.content.length - note.length) / CHARS_PER_TOKEN);
    pruned++;
  }
  return { messages: out, pruned };
}
