import type { ToolResult } from './tool.js';

/**
 * A failed tool result: the model reads `ERROR: <message>` (like every failed call) and the call is marked failed.
 *
 * @example
 * ```ts
 * return toolError('File not found: src/a.ts');
 * ```
 */
export function toolError(message: string): ToolResult {
  return { text: `ERROR: ${message}`, error: message };
}
