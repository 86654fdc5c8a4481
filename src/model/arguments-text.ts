import type { ModelFinish } from './chat-model.js';

/**
 * A tool call's `arguments` as the JSON text the API specifies. Some OpenAI-compatible
 * servers send the object itself: it is written as JSON, so the call runs with it. Nothing
 * (`undefined`, `null`) is `''`, which reads as no arguments.
 *
 * @example
 * ```ts
 * argumentsText('{"a":1}'); // '{"a":1}'
 * argumentsText({ a: 1 }); // '{"a":1}'
 * ```
 */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value); // not JSON (cannot come from a parsed body): the call is told its arguments are unreadable
  }
}

/**
 * A model's finish with every tool call's `arguments` as text ({@link argumentsText}): the
 * finish itself when they already are (the usual case, no copy). The agent applies it to
 * every model's answer, since a custom `ChatModel` written in JavaScript may hand over the
 * object itself; the history, the session, the token estimates and the events then all see
 * the same text (an object's missing `length` made the estimate NaN).
 *
 * @example
 * ```ts
 * withTextArguments({ type: 'finish', text: '', toolCalls: [{ id: 'c1', name: 'clock', arguments: { zone: 'UTC' } }] });
 * // its call's arguments: '{"zone":"UTC"}'
 * ```
 */
export function withTextArguments(finish: ModelFinish): ModelFinish {
  const calls = finish.toolCalls;
  if (calls.every((c) => typeof c.arguments === 'string')) return finish;
  return { ...finish, toolCalls: calls.map((c) => (typeof c.arguments === 'string' ? c : { ...c, arguments: argumentsText(c.arguments) })) };
}
