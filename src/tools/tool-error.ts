import type { ToolResult } from './tool.js';

/**
 * A failed tool result: the model reads `Error: <message>` and the call is marked failed.
 *
 * @example
 * ```ts
 * return toolError('File not found: src/a.ts');
 * ```
 */
export function toolError(message: string): ToolResult {
  return { text: `Error: ${message}`, error: message };
}
