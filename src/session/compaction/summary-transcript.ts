import type { ChatMessage } from '../../model/chat-message.js';
import { clipMiddle } from '../../text/clip-middle.js';
import { headOf } from '../../text/whole-chars.js';

/** The most characters of one message shown to the summariser (its start and its end). */
const MAX_MESSAGE_CHARS = 2_000;

/** What the first message (it carries any earlier summary) keeps at least when it must be cut, if the limit allows. */
const FIRST_FLOOR = 200;

/** Between two lines of the transcript. */
const SEPARATOR = '\n\n';

/** The line that stands for the `count` oldest messages but the first, left out. */
const leftOut = (count: number): string => `[... ${count} earlier message(s) left out here to fit ...]`;

/**
 * The messages to summarise as plain text for the `compaction` agent, at most `maxChars`
 * (exactly: the request it goes in is sized by it): each message cut to its first and last
 * thousand characters, and, when they are still too long together, the oldest left out but
 * for the first (which carries any earlier summary), with a line saying how many were left
 * out. The first keeps at least its first {@link FIRST_FLOOR} characters when the limit
 * allows, and whatever room the newer messages leave.
 *
 * @example
 * ```ts
 * summaryTranscript([{ role: 'user', content: 'Find the tests' }], 10_000); // 'USER: Find the tests'
 * ```
 */
export function summaryTranscript(messages: readonly ChatMessage[], maxChars: number): string {
  const names = new Map<string, string>();
  const lines = messages.map((m) => lineOf(m, names));
  const limit = Math.max(0, Math.floor(maxChars));
  const whole = lines.join(SEPARATOR);
  if (whole.length <= limit) return whole;
  const first = lines[0]!;
  const room = limit - Math.min(first.length, FIRST_FLOOR);
  const cost = (i: number): number => lines[i]!.length + SEPARATOR.length;
  let from = 1; // the first newer line kept
  let used = 0; // what the newer lines kept and the line saying how many were left out take
  for (let i = 1; i < lines.length; i++) used += cost(i);
  let note: string | undefined;
  if (used > room && lines.length > 1) {
    // Some are left out, so the line saying so must fit too: each line kept leaves room for it.
    const noteCost = (count: number): number => leftOut(count).length + SEPARATOR.length;
    used = 0;
    from = lines.length;
    while (from > 1 && used + cost(from - 1) + noteCost(from - 2) <= room) used += cost(--from);
    // Were no line kept, the note might not fit beside the floor: it takes from the first's room if it can, else it goes.
    if (used + noteCost(from - 1) <= limit) {
      note = leftOut(from - 1);
      used += noteCost(from - 1);
    }
  }
  const head = clipTo(first, limit - used);
  return [...(head === '' ? [] : [head]), ...(note === undefined ? [] : [note]), ...lines.slice(from)].join(SEPARATOR);
}

/** `text` cut to at most `max` characters: its start and end when there is room for the marker between, else its start. */
function clipTo(text: string, max: number): string {
  if (text.length <= max) return text;
  return max >= 80 ? clipMiddle(text, max) : headOf(text, max);
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
