import type { ChatMessage } from '../../model/chat-message.js';
import { clipMiddle } from '../../text/clip-middle.js';

/** The most characters of one message shown to the summariser (its start and its end). */
const MAX_MESSAGE_CHARS = 2_000;

/**
 * The messages to summarise as plain text for the `compaction` agent, at most `maxChars`:
 * each message cut to its first and last thousand characters, and, when they are still too
 * long together, the oldest left out but for the first (which carries any earlier summary),
 * with a line saying how many were left out.
 *
 * @example
 * ```ts
 * summaryTranscript([{ role: 'user', content: 'Find the tests' }], 10_000); // 'USER: Find the tests'
 * ```
 */
export function summaryTranscript(messages: readonly ChatMessage[], maxChars: number): string {
  const names = new Map<string, string>();
  const lines = messages.map((m) => lineOf(m, names));
  const first = lines[0] ?? '';
  let used = first.length;
  const kept: string[] = [];
  for (let i = lines.length - 1; i >= 1; i--) {
    const line = lines[i]!;
    if (used + line.length + 2 > maxChars) {
      kept.push(`[... ${i} earlier message(s) left out here to fit ...]`);
      break;
    }
    kept.push(line);
    used += line.length + 2;
  }
  return [clipMiddle(first, Math.max(200, maxChars - used)), ...kept.reverse()].join('\n\n');
}

function lineOf(m: ChatMessage, names: Map<string, string>): string {
  switch (m.role) {
    case 'system':
      return `SYSTEM: ${clipMiddle(m.content, MAX_MESSAGE_CHARS)}`;
    case 'user':
      return `USER: ${clipMiddle(m.content, MAX_MESSAGE_CHARS)}`;
    case 'assistant': {
      const calls = (m.tool_calls ?? []).map((c) => {
        names.set(c.id, c.function.name);
        return `\nASSISTANT called ${c.function.name}(${clipMiddle(c.function.arguments, 400)})`;
      });
      return `ASSISTANT: ${clipMiddle(m.content ?? '', MAX_MESSAGE_CHARS)}${calls.join('')}`;
    }
    case 'tool':
      return `RESULT of ${names.get(m.tool_call_id) ?? 'a tool'}: ${clipMiddle(m.content, MAX_MESSAGE_CHARS)}`;
  }
}
