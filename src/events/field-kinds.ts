/**
 * What one field of a value read from the network must be, and the check of it: shared by
 * `isWellFormedEvent` (events) and the task tree's check of UI items, so the two agree on
 * what a number, a `metrics` or a list of todos is.
 *
 * @module
 */

/** What one field must be: `?` marks a field that may be absent (but, when present, must fit). */
export type Kind = 'string' | 'string?' | 'number' | 'boolean' | 'boolean?' | 'json' | 'calls' | 'todos' | 'metrics' | 'usage?';

/** The numbers of a run's `metrics` (a `RunEnd`'s, a `task-end`'s, a `result`'s). */
export const METRICS: readonly string[] = ['promptTokens', 'completionTokens', 'totalTokens', 'durationMs', 'tasks'];
const USAGE = ['promptTokens', 'completionTokens', 'totalTokens'];

/**
 * Whether `value` is what `kind` promises: a number is finite, `json` anything but
 * `undefined`, an optional kind `undefined` or its kind.
 *
 * @example
 * ```ts
 * fits(Number.NaN, 'number'); // false
 * fits(undefined, 'string?'); // true
 * ```
 */
export function fits(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'string?':
    case 'boolean?':
      return value === undefined || typeof value === kind.slice(0, -1);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'json':
      return value !== undefined;
    case 'calls':
      return Array.isArray(value) && value.every((call) => isObject(call) && typeof call.callId === 'string' && typeof call.name === 'string');
    case 'todos':
      return Array.isArray(value) && value.every((todo) => isObject(todo) && typeof todo.id === 'string' && typeof todo.content === 'string' && typeof todo.status === 'string');
    case 'metrics':
      return isObject(value) && METRICS.every((name) => fits(value[name], 'number'));
    case 'usage?':
      return value === undefined || (isObject(value) && USAGE.every((name) => fits(value[name], 'number')));
    default:
      return typeof value === kind;
  }
}

/**
 * Whether `value` is a plain object (not `null`, not an array), whose fields can be read.
 *
 * @example
 * ```ts
 * isObject([]); // false
 * ```
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
