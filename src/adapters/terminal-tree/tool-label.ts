import type { JsonValue } from '../../events/index.js';
import { visibleLines } from '../visible-text.js';
import { truncate } from './text-line.js';

const MAIN_ARGUMENTS = ['command', 'path', 'pattern', 'url', 'agent_name', 'description'] as const;

/**
 * A tool call in a few words: the tool and the argument that says most, e.g.
 * `read src/a.ts`, `bash npm test`, `multitask ×3`.
 *
 * @example
 * ```ts
 * toolLabel('bash', { command: 'npm test' }); // 'bash npm test'
 * ```
 */
export function toolLabel(toolName: string, args: JsonValue): string {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return toolName;
  const record = args as { readonly [key: string]: JsonValue };
  const tasks = record.tasks;
  if (Array.isArray(tasks)) return `${toolName} ×${tasks.length}`;
  for (const key of MAIN_ARGUMENTS) {
    const value = record[key];
    // Marked, not stripped: a hidden character in a command is worth seeing.
    if (typeof value === 'string' && value !== '') return `${toolName} ${truncate(visibleLines(value).join(' ⏎ '), 40)}`;
  }
  return toolName;
}
