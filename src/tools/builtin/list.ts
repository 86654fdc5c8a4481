import type { Dirent } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Static } from 'typebox';
import { defineTool } from '../define-tool.js';
import { readFolderAt } from '../confined-fs.js';
import { fsErrorMessage } from '../fs-error-message.js';
import { approvalNote, judgePaths, pathJudge } from '../path-judge.js';
import { joinRelative } from '../search-files.js';
import { isRefusal, notWhereJudged, resolveToolPath } from '../resolve-tool-path.js';
import { nameable, shownName } from '../shown-name.js';
import type { Tool } from '../tool.js';
import { toolError } from '../tool-error.js';

// A JSON schema literal, typed by TypeBox's `Static` (a type-only import): the TypeBox
// builders would load ~370 modules when the package is imported (test/packaging/import-cost.test.ts).
const LIST_INPUT = {
  type: 'object',
  properties: {
    path: { type: 'string', minLength: 1, description: 'Folder, relative to the workspace. Default ".".' },
  },
  additionalProperties: false,
} as const;

/**
 * Arguments of the `list` tool: the type its JSON schema gives (TypeBox's `Static`), so
 * the two cannot drift apart.
 *
 * @property path - The folder to list, relative to the workspace; default the workspace itself.
 */
export interface ListArgs extends Static<typeof LIST_INPUT> {}

/** Limits of the `list` tool. */
export interface ListToolOptions {
  /** Entries shown at most; default 1000. */
  readonly maxEntries?: number;
}

/**
 * Creates the `list` tool: the entries of one folder, sorted by name, folders marked with
 * `/` and symbolic links with `@` (`@/` when the link leads to a folder). A link is shown,
 * never listed through. The folder, resolved again when the call runs, must be where the call
 * was judged (or one the rules allow): one swapped for a link while its approval waited is
 * refused, not listed. Each entry is judged by the permission rules for `list`
 * (`ToolContext.judgePath`): a denied one is left out silently, one needing approval is
 * left out and counted in a note. A name that could be misread (a line break, a control or
 * bidi character, a final `@`...) is printed JSON-quoted, before its mark; one whose bytes are
 * not UTF-8, which no tool could name, is left out and counted in a note.
 *
 * @example
 * ```ts
 * await createListTool().execute({ path: 'src' }, context); // { text: 'index.ts\ntools/' }
 * ```
 */
export function createListTool(options: ListToolOptions = {}): Tool<ListArgs> {
  const maxEntries = options.maxEntries ?? 1000;
  return defineTool({
    name: 'list',
    description:
      'Lists the entries of a folder of the workspace (not recursive), sorted by name. Folders end ' +
      'with "/", symbolic links with "@". Use glob to find files by name across folders.',
    input: LIST_INPUT,
    subject: (args) => args.path ?? '.',
    paths: (args) => [args.path ?? '.'],
    async execute(args, context) {
      const path = args.path ?? '.';
      const judge = pathJudge(context, 'list');
      const target = await resolveToolPath(context.workspace, 'list', path, judge);
      if (isRefusal(target)) return target;
      // The folder approved may have become a link elsewhere while the approval was pending.
      const swapped = notWhereJudged(context, 'list', path, target, judge);
      if (swapped) return swapped;
      let found: Dirent[] | undefined;
      try {
        if (!(await stat(target.absolute)).isDirectory()) {
          return toolError(`${shownName(path)} is a file, not a folder; use read to see its content`);
        }
        found = await readFolderAt(target.absolute);
      } catch (error) {
        return toolError(fsErrorMessage(error, shownName(path)));
      }
      // The folder became a link (or vanished) after it was resolved: list nothing through it.
      if (found === undefined) return toolError(`${shownName(path)} changed while it was being listed (a symbolic link on the way?); try again`);
      const named = await nameableEntries(found, target.absolute);
      const { allowed: entries, asked } = judgePaths(named, (entry) => joinRelative(target.relative, entry.name), judge);
      const unnamed = found.length - named.length;
      const skipped =
        approvalNote(asked, 'entry', 'read one by its path to be asked') +
        (unnamed > 0 ? `\n\n(${unnamed} more ${unnamed === 1 ? 'entry' : 'entries'} not shown: a name that is not UTF-8 cannot be given to a tool; use bash.)` : '');
      if (entries.length === 0) return { text: `(${shownName(path)} is empty)${skipped}` };
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const shown = entries.slice(0, maxEntries);
      const names = await Promise.all(shown.map((entry) => render(entry, target.absolute)));
      const rest = entries.length - shown.length;
      const note = rest > 0 ? `\n\n(${rest} more entries not shown; use glob to narrow the search.)` : '';
      return { text: names.join('\n') + note + skipped };
    },
  });
}

/** The entries of `folder` a tool can name (see `nameable`); nearly always all of them. */
async function nameableEntries(entries: readonly Dirent[], folder: string): Promise<Dirent[]> {
  const kept = await Promise.all(entries.map(async (entry) => ((await nameable(folder, entry.name)) ? [entry] : [])));
  return kept.flat();
}

/** `entry` as one line: its name (see `shownName`) and its mark, `/`, `@` or `@/`. */
async function render(entry: Dirent, folder: string): Promise<string> {
  const name = shownName(entry.name);
  if (entry.isDirectory()) return `${name}/`;
  if (!entry.isSymbolicLink()) return name;
  const pointsToFolder = await stat(join(folder, entry.name)).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  return pointsToFolder ? `${name}@/` : `${name}@`;
}
