import type { FileHandle } from 'node:fs/promises';
import type { Static } from 'typebox';
import { errnoOf } from '../../errors/errno-of.js';
import { openChecked, readSized } from '../confined-fs.js';
import { defineTool } from '../define-tool.js';
import { fsErrorMessage } from '../fs-error-message.js';
import { looksBinary } from '../looks-binary.js';
import { pathJudge } from '../path-judge.js';
import { shownName } from '../shown-name.js';
import { hardLinked, replaceContent } from '../replace-content.js';
import { linkLoop } from '../link-loop.js';
import { withPathLock } from '../path-lock.js';
import { isRefusal, resolveToolPath, notWhereJudged } from '../resolve-tool-path.js';
import type { Tool, ToolResult } from '../tool.js';
import { countMatches, editedBytes, lineAt } from './edit-matches.js';
import { toolError } from '../tool-error.js';
import type { WorkspacePath } from '../workspace-path.js';

// A JSON schema literal, typed by TypeBox's `Static` (a type-only import): the TypeBox
// builders would load ~370 modules when the package is imported (test/packaging/import-cost.test.ts).
const EDIT_INPUT = {
  type: 'object',
  required: ['path', 'old_string', 'new_string'],
  properties: {
    path: { type: 'string', minLength: 1, description: 'File path, relative to the workspace.' },
    old_string: { type: 'string', minLength: 1, description: 'The exact text to replace.' },
    new_string: { type: 'string', description: 'The text to put in its place.' },
    replace_all: { type: 'boolean', description: 'Replace every occurrence. Default false.' },
  },
  additionalProperties: false,
} as const;

/**
 * Arguments of the `edit` tool: the type its JSON schema gives (TypeBox's `Static`), so
 * the two cannot drift apart.
 *
 * @property path - The file to change, relative to the workspace.
 * @property old_string - The exact text to replace, whitespace included; must occur once unless `replace_all`.
 * @property new_string - The text to put in its place; must differ from `old_string`.
 * @property replace_all - Replace every occurrence instead of requiring exactly one; default false.
 */
export interface EditArgs extends Static<typeof EDIT_INPUT> {}

/**
 * Creates the `edit` tool: replaces an exact piece of text in a file. `old_string` must
 * occur exactly once unless `replace_all` is true, so an edit never lands somewhere the
 * model did not mean. Edits and writes of one file take turns (`withPathLock`), so
 * sibling tasks' edits of it all land.
 *
 * @example
 * ```ts
 * await createEditTool().execute({ path: 'a.ts', old_string: 'let x', new_string: 'const x' }, context);
 * // { text: 'Replaced 1 occurrence in a.ts (line 3)' }
 * ```
 */
export function createEditTool(): Tool<EditArgs> {
  return defineTool({
    name: 'edit',
    description:
      'Replaces exact text in a file of the workspace. old_string must match the file exactly ' +
      '(whitespace and indentation included) and only once; include enough surrounding lines to ' +
      'make it unique, or set replace_all to replace every occurrence. Read the file first.',
    input: EDIT_INPUT,
    subject: (args) => args.path,
    paths: (args) => [args.path],
    async execute({ path, old_string: oldText, new_string: newText, replace_all: all = false }, context) {
      if (oldText === newText) return toolError('old_string and new_string are the same; there is nothing to change');
      // Resolved again now: a folder on the way may have become a link since the gate checked it.
      const judge = pathJudge(context, 'edit');
      const target = await resolveToolPath(context.workspace, 'edit', path, judge);
      if (isRefusal(target)) return target;
      const swapped = notWhereJudged(context, 'edit', path, target, judge);
      if (swapped) return swapped;
      // Messages name the path as the search tools print one: a line break or a bidi override in it escaped.
      const shown = shownName(path);
      // One edit or write of a file at a time: each reads what the one before it wrote (a
      // sibling task's edit of the same file would otherwise be lost, both reporting success).
      return withPathLock(target.absolute, () => editAt(target, shown, { oldText, newText, all }, context.signal));
    },
  });
}

/** The change an edit makes. */
interface Change {
  readonly oldText: string;
  readonly newText: string;
  readonly all: boolean;
}

/**
 * Opens the file at `target` without following a link, and makes the change through the handle;
 * `shown` is the path as messages name it (`shownName`).
 */
async function editAt(target: WorkspacePath, shown: string, { oldText, newText, all }: Change, signal: AbortSignal): Promise<ToolResult> {
  let handle: FileHandle | undefined;
  try {
    handle = await openChecked(target.absolute, 'edit');
  } catch (error) {
    return (await linkLoop(error, target.absolute, shown, 'changed')) ?? openFailure(error, shown);
  }
  if (handle === undefined) return toolError(`${shown}: a folder on its way became a symbolic link as it was opened, so nothing was changed; check where it leads and edit again`);
  try {
    // Everything through the handle checked to be the file at the path: a swap meanwhile changes nothing.
    const stats = await handle.stat();
    if (!stats.isFile()) return toolError(`${shown} is not a regular file (a named pipe, a socket or a device); edit only changes regular files`);
    const linked = hardLinked(stats, shown, 'edit');
    if (linked) return linked;
    if (stats.size > EDIT_MAX_FILE_BYTES) return tooLarge(shown, `is ${stats.size} bytes`);
    const bytes = await readSized(handle, stats.size);
    if (looksBinary(bytes)) return toolError(`${shown} looks like a binary file; edit only changes text files`);
    const content = bytes.toString('utf8');
    const found = countMatches(content, oldText);
    if (found.count === 0) {
      return toolError(
        `old_string was not found in ${shown}. It must match exactly, including whitespace and ` +
          'indentation; read the file to copy the current text.',
      );
    }
    if (found.count > 1 && !all) {
      return toolError(
        `old_string matches ${found.count} times in ${shown}. Include more surrounding lines to make it ` +
          'unique, or set replace_all: true to replace every occurrence.',
      );
    }
    const count = all ? found.count : 1;
    const size = editedBytes(bytes.length, count, oldText, newText);
    if (size > EDIT_MAX_FILE_BYTES) return tooLarge(shown, `would be ${size} bytes after this edit`);
    // A function as replacement: `$&` and friends in new_string stay literal.
    const updated = all ? content.replaceAll(oldText, () => newText) : content.replace(oldText, () => newText);
    // Never cut first: a cancel then would leave the file empty (see replaceContent).
    await replaceContent(handle, updated, signal);
    const line = lineAt(content, found.first);
    const where = count === 1 ? ` (line ${line})` : ` (first at line ${line})`;
    return { text: `Replaced ${count} occurrence${count === 1 ? '' : 's'} in ${shownName(target.relative)}${where}` };
  } catch (error) {
    return toolError(fsErrorMessage(error, shown));
  } finally {
    await handle.close();
  }
}

/**
 * The most bytes a file may have, before and after an edit: the whole file is read, searched
 * and written again in memory, so a 150 MB file of one letter would take gigabytes (its
 * 134 million matches once crashed the process).
 */
const EDIT_MAX_FILE_BYTES = 5 * 1024 * 1024;

function tooLarge(shown: string, size: string): ToolResult {
  return toolError(
    `${shown} ${size}, more than the ${EDIT_MAX_FILE_BYTES} (5 MiB) edit changes; nothing was changed. ` +
      `For a file this large, use bash (sed -i 's/old/new/' ${shown}, or a short script).`,
  );
}

function openFailure(error: unknown, shown: string): ToolResult {
  switch (errnoOf(error)) {
    case 'ENOENT':
      return toolError(`${fsErrorMessage(error, shown)}. To create a file, use write.`);
    case 'EISDIR':
      return toolError(`${shown} is a folder, not a file`);
    case 'ELOOP':
      return toolError(`${shown} became a symbolic link as it was opened, so nothing was changed; check what it points to and edit again`);
    case 'ENXIO':
      return toolError(`${shown} is not a regular file (a socket or a device); edit only changes regular files`);
    default:
      return toolError(fsErrorMessage(error, shown));
  }
}
