import type { FakeToolCall } from './types.js';

/**
 * The arguments text sent for a tool call: a string as it is (possibly invalid JSON on
 * purpose), an object as JSON.
 *
 * @example
 * ```ts
 * toolCallArguments({ name: 'read', arguments: { path: 'a.txt' } }); // '{"path":"a.txt"}'
 * ```
 */
export function toolCallArguments(call: FakeToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

/**
 * The id sent for a tool call: its own, or one derived from the request and position so
 * that runs are reproducible.
 *
 * @example
 * ```ts
 * toolCallId({ name: 'read', arguments: {} }, 3, 1); // 'call_3_1'
 * ```
 */
export function toolCallId(call: FakeToolCall, requestIndex: number, position: number): string {
  return call.id ?? `call_${requestIndex}_${position}`;
}
