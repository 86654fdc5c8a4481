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
