import type { JsonValue } from '../../events/index.js';
import { fitLines, fitMarked } from './fit-line.js';

const MAIN_ARGUMENTS = ['command', 'path', 'pattern', 'url', 'agent_name', 'description'] as const;
/** How many columns of the main argument the tree shows. */
const ARGUMENT_COLUMNS = 40;
/** How many columns of a name the tree shows: the model names the tool, 100,000 characters of it if it likes. */
const NAME_COLUMNS = 64;

/**
 * A tool's or an agent's name as the tree shows it, on the tool's line and on the task's
 * alike: invisible characters and escape sequences marked (`<U+XXXX>`), never shown raw nor
 * dropped unseen, cut to 64 columns ending in `…`. Every registered tool's name fits; a name
 * the model made up need not (printed whole, a 100,000-character one took 200 KB of a run's
 * output, twice).
 *
 * @example
 * ```ts
 * shownTreeName('read'); // 'read'
 * shownTreeName('evil\u001b]8;;x\u0007'); // 'evil<U+001B>]8;;x<U+0007>'
 * ```
 */
export function shownTreeName(name: string): string {
  // only the start that shows is marked: the name may be megabytes of zero-width spaces
  return fitMarked(name, NAME_COLUMNS);
}

/**
 * A tool call in a few words: the tool and the argument that says most, e.g.
 * `read src/a.ts`, `bash npm test`, `multitask ×3`. Invisible characters in either (the
 * model names the tool, so it may be anything) are marked as `<U+XXXX>`, never shown raw;
 * the argument is cut to `columns` terminal columns, ending in `…`.
 *
 * @param columns - The most columns the argument takes (default 40).
 * @example
 * ```ts
 * toolLabel('bash', { command: 'npm test' }); // 'bash npm test'
 * ```
 */
export function toolLabel(toolName: string, args: JsonValue, columns = ARGUMENT_COLUMNS): string {
  const name = shownTreeName(toolName);
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return name;
  const record = args as { readonly [key: string]: JsonValue };
  const tasks = record.tasks;
  if (Array.isArray(tasks)) return `${name} ×${tasks.length}`;
  for (const key of MAIN_ARGUMENTS) {
    const value = record[key];
    // Marked, not stripped: a hidden character in a command is worth seeing.
    if (typeof value === 'string' && value !== '') return `${name} ${fitLines(value, columns)}`;
  }
  return name;
}
