import type { ChatMessage } from '../model/chat-message.js';

/** Of the entries skipped, how many are named (which and why) in the report; the count is exact. */
export const NAMED_SKIPS = 3;

/** A stored history after checking: the messages that can be sent, and what was left out. */
export interface CheckedHistory {
  /** The well-formed messages, in order. */
  readonly messages: readonly ChatMessage[];
  /** How many entries were skipped. */
  readonly skippedCount: number;
  /** Of the first {@link NAMED_SKIPS} entries skipped, one line each saying which and why. */
  readonly skipped: readonly string[];
}

/**
 * Checks what a session store returned before a run sends it to a model. A store is outside
 * the run's control (a hand-edited file, a custom store, another version of this library),
 * so nothing it answers may crash the run: an entry of the wrong shape is skipped and
 * counted (the first few named: {@link skippedReport}), and an answer that is not a list at all throws an error naming the session
 * (the run turns it into an abnormal `RunEnd`).
 *
 * @example
 * ```ts
 * const { messages, skipped } = checkHistory(await store.load(id), id);
 * ```
 */
export function checkHistory(value: unknown, sessionId: string): CheckedHistory {
  if (!Array.isArray(value)) {
    throw new TypeError(`the session store returned ${describe(value)} for session "${sessionId}" instead of a list of messages`);
  }
  let messages: ChatMessage[] | undefined;
  const skipped: string[] = [];
  let skippedCount = 0;
  for (let i = 0; i < value.length; i++) {
    const entry: unknown = value[i];
    const problem = messageProblem(entry);
    if (problem === undefined) {
      messages?.push(entry as ChatMessage);
      continue;
    }
    messages ??= value.slice(0, i) as ChatMessage[];
    if (++skippedCount <= NAMED_SKIPS) skipped.push(`entry ${i + 1} ${problem}`);
  }
  return { messages: messages ?? (value as ChatMessage[]), skippedCount, skipped };
}

/**
 * The one report of a load's skipped entries (however many a planted file holds: one
 * `Warning` per entry would flood every consumer on every run), or `undefined` for none.
 *
 * @example
 * ```ts
 * skippedReport(checkHistory([null, { role: 'user', content: 'hi' }], 's'), 's');
 * // 'Skipped 1 stored message of session "s": entry 1 is null, not a message object.'
 * ```
 */
export function skippedReport(checked: CheckedHistory, sessionId: string): string | undefined {
  const { skippedCount: count, skipped } = checked;
  if (count === 0) return undefined;
  const more = count > skipped.length ? `; and ${count - skipped.length} more` : '';
  return `Skipped ${count} stored message${count === 1 ? '' : 's'} of session "${sessionId}": ${skipped.join('; ')}${more}.`;
}

/** Why an entry is not a chat message, or undefined when it is one. */
function messageProblem(m: unknown): string | undefined {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return `is ${describe(m)}, not a message object`;
  const v = m as Record<string, unknown>;
  switch (v.role) {
    case 'system':
    case 'user':
      return typeof v.content === 'string' ? undefined : `(${v.role}) has no string content`;
    case 'tool':
      if (typeof v.tool_call_id !== 'string') return '(tool) has no string tool_call_id';
      return typeof v.content === 'string' ? undefined : '(tool) has no string content';
    case 'assistant':
      return assistantProblem(v);
    default:
      return `has an unknown role ${describe(v.role)}`;
  }
}

function assistantProblem(v: Record<string, unknown>): string | undefined {
  const calls = v.tool_calls;
  if (calls !== undefined) {
    if (!Array.isArray(calls)) return `(assistant) has tool_calls ${describe(calls)}, not a list`;
    for (const c of calls as unknown[]) {
      if (!isToolCall(c)) return `(assistant) has a malformed tool call ${describe(c)}`;
    }
  }
  if (typeof v.content === 'string') return undefined;
  if ((v.content === null || v.content === undefined) && Array.isArray(calls) && calls.length > 0) return undefined;
  return '(assistant) has neither text nor tool calls';
}

function isToolCall(c: unknown): boolean {
  if (typeof c !== 'object' || c === null) return false;
  const call = c as Record<string, unknown>;
  const fn = call.function as Record<string, unknown> | null | undefined;
  return typeof call.id === 'string' && call.type === 'function' && typeof fn === 'object' && fn !== null &&
    typeof fn.name === 'string' && typeof fn.arguments === 'string';
}

/** A short, safe description of a value for an error message. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
