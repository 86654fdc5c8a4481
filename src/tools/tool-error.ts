import type { ToolResult } from './tool.js';

/**
 * A failed tool result: the model reads `ERROR: <message>` (like every failed call: the
 * harness's own refusals, bad arguments, tools that failed) and `ToolCallEnd.error` holds the
 * message. The one place that spells the prefix.
 *
 * @example
 * ```ts
 * return toolError('File not found: src/a.ts');
 * ```
 */
export function toolError(message: string): ToolResult & { readonly error: string } {
  return { text: `ERROR: ${message}`, error: message };
}
