import type { AttributeValue, Exception } from '@opentelemetry/api';
import { headOf } from '../text/whole-chars.js';

/**
 * How much of each text a span keeps. An exporter sends what a span holds whole, and much
 * of it comes from elsewhere at any length: a definition file's names, the model's tool names
 * and call ids, a server's error.
 *
 * @module
 */

/**
 * The most characters of a name or id that a span keeps: in its name (an agent's, a model's, a
 * tool's: a definition file sets the first two, at any length) and as an attribute (the name
 * of a tool the run does not have, a call's id: the model makes both up).
 */
export const MAX_NAME_CHARS = 128;

/**
 * The most characters of any other text a span keeps: an attribute, its status message, a
 * recorded error's message. A run's error can quote the model (the names of the tools it
 * asked for), a failed call's error a server's answer: each of any length, and an exporter
 * sends what a span holds whole (the SDK's attribute limit is off by default).
 */
export const MAX_TEXT_CHARS = 2_000;

/** The attributes given a value, each with its text cut (a list's strings too). */
export function boundedAttributes(attributes: Record<string, AttributeValue | undefined>): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = bounded(value);
  return out;
}

/** A value with its text cut, a list's strings too (a finish reason is the server's, of any length). */
function bounded(value: AttributeValue): AttributeValue {
  if (typeof value === 'string') return cut(value, MAX_TEXT_CHARS);
  if (!Array.isArray(value) || !value.some((item) => typeof item === 'string' && item.length > MAX_TEXT_CHARS)) return value;
  return (value as Array<string | null | undefined>).map((item) => (typeof item === 'string' ? cut(item, MAX_TEXT_CHARS) : item));
}

/** `text`, or its first `max` characters and an ellipsis when it is longer. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${headOf(text, max)}…`;
}

/** An error as a span records it: its message cut, and in its stack (which starts with the message) too. */
export function recordedError(error: Error): Exception {
  const message = cut(error.message, MAX_TEXT_CHARS);
  if (message === error.message) return error;
  const stack = error.stack?.replace(error.message, () => message);
  return { name: error.name, message, ...(stack ? { stack: cut(stack, MAX_TEXT_CHARS * 4) } : {}) };
}
