import type { Static } from 'typebox';
import { errnoOf } from '../../errors/errno-of.js';
import { defineTool } from '../define-tool.js';
import { fsErrorMessage } from '../fs-error-message.js';
import type { Tool, ToolResult } from '../tool.js';
import { toolError } from '../tool-error.js';
import { pathJudge } from '../path-judge.js';
import { shownName } from '../shown-name.js';
import { hardLinked, replaceContent } from '../replace-content.js';
import { isRefusal, notWhereJudged, resolveToolPath } from '../resolve-tool-path.js';
import { linkLoop } from '../link-loop.js';
import { withPathLock } from '../path-lock.js';
import type { WorkspacePath } from '../workspace-path.js';
import { openWriteTarget, type WriteTarget } from '../write-target.js';

// A JSON schema literal, typed by TypeBox's `Static` (a type-only import): the TypeBox
// builders would load ~370 modules when the package is imported (test/packaging/import-cost.test.ts).
const WRITE_INPUT = {
  type: 'object',
  required: ['path', 'content'],
  properties: {
    path: { type: 'string', minLength: 1, description: 'File path, relative to the workspace.' },
    content: { type: 'string', description: 'The complete new content of the file.' },
  },
  additionalProperties: false,
} as const;

/**
 * Arguments of the `write` tool: the type its JSON schema gives (TypeBox's `Static`), so
 * the two cannot drift apart.
 *
 * @property path - The file to write, relative to the workspace; missing parent folders are created.
 * @property content - The complete new content (UTF-8); an existing file is replaced.
 */
export interface WriteArgs extends Static<typeof WRITE_INPUT> {}

/**
 * Creates the `write` tool: writes a whole file (UTF-8), creating missing parent folders,
 * and says how many bytes and lines it wrote. The path is resolved again when the tool runs
 * and refused if it now leads somewhere the rules deny, or somewhere other than where the gate
 * judged it that the rules do not allow outright (a link swapped in since the call was checked
 * or approved). Missing folders are then made one at a time, each in its checked parent, and
 * the file is opened in its checked folder without following a link, and written only if it
 * is a regular file really at that path (`openChecked`): a link swapped in at the very last
 * moment, in the file's place or a folder's, is refused, and a named pipe cannot block it.
 * A file the call created is removed again when the call is cancelled or fails before the
 * content is all in place (the folders it made stay). Writes and edits of one file take turns
 * (`withPathLock`): an edit never writes its old read of the file back over a write.
 *
 * @example
 * ```ts
 * await createWriteTool().execute({ path: 'notes/todo.md', content: '- ship\n' }, context);
 * // { text: 'Created notes/todo.md (7 bytes, 1 line)' }
 * ```
 */
export function createWriteTool(): Tool<WriteArgs> {
  return defineTool({
    name: 'write',
    description:
      'Writes a text file in the workspace, replacing it if it exists and creating missing folders. ' +
      'Give the complete content. To change part of an existing file, prefer edit.',
    input: WRITE_INPUT,
    subject: (args) => args.path,
    paths: (args) => [args.path],
    async execute({ path, content }, context) {
      // The gate checked the path a moment ago; a link swapped in since could lead elsewhere.
      const judge = pathJudge(context, 'write');
      const target = await resolveToolPath(context.workspace, 'write', path, judge);
      if (isRefusal(target)) return target;
      const swapped = notWhereJudged(context, 'write', path, target, judge);
      if (swapped) return swapped;
      // Messages name the path as the search tools print one: a line break or a bidi override in it escaped.
      const shown = shownName(path);
      // One write or edit of a file at a time: an edit reading it meanwhile would write its old text back over this.
      return withPathLock(target.absolute, () => writeAt(target, shown, content, context.signal));
    },
  });
}

/**
 * Opens (or creates) the file at `target` without following a link, and writes `content` through
 * the handle; `shown` is the path as messages name it (`shownName`).
 */
async function writeAt(target: WorkspacePath, shown: string, content: string, signal: AbortSignal): Promise<ToolResult> {
  let opened: WriteTarget | undefined;
  try {
    opened = await openWriteTarget(target.absolute);
  } catch (error) {
    return (await linkLoop(error, target.absolute, shown, 'written')) ?? writeFailure(error, shown);
  }
  if (opened === undefined) {
    return toolError(`${shown}: a folder on its way became a symbolic link while it was being written, so nothing was written; check where it leads and write again`);
  }
  const { file, created } = opened;
  let written = false;
  try {
    // Checked on the handle before anything is cut: a named pipe or a device is never truncated or written.
    const stats = await file.stat();
    if (!stats.isFile()) return notRegular(shown);
    const linked = hardLinked(stats, shown, 'write');
    if (linked) return linked;
    // Never cut first: a cancel then would leave the old file empty (see replaceContent).
    await replaceContent(file, content, signal);
    written = true;
  } catch (error) {
    return writeFailure(error, shown);
  } finally {
    // A file this call created and did not fill is removed, not left empty or cut.
    if (!written) await opened.discard();
    await opened.close();
  }
  const bytes = Buffer.byteLength(content, 'utf8');
  const lines = countLines(content);
  const verb = created ? 'Created' : 'Overwrote';
  return { text: `${verb} ${shownName(target.relative)} (${plural(bytes, 'byte')}, ${plural(lines, 'line')})` };
}

function writeFailure(error: unknown, shown: string): ToolResult {
  switch (errnoOf(error)) {
    case 'ELOOP':
    case 'EEXIST': // created meanwhile, as a link or a file, between the two opens
      return toolError(`${shown} became a symbolic link (or appeared) while it was being written, so nothing was written; check what it points to and write again`);
    case 'EISDIR':
      return toolError(`${shown} is a folder; give a file path to write`);
    case 'ENXIO':
      return notRegular(shown);
    default:
      return toolError(fsErrorMessage(error, shown));
  }
}

function notRegular(shown: string): ToolResult {
  return toolError(`${shown} is not a regular file (a named pipe, a socket or a device), so nothing was written; write only writes regular files`);
}

/** Lines as an editor counts them: a final newline does not start another line. */
function countLines(content: string): number {
  if (content === '') return 0;
  const breaks = content.split('\n').length - 1;
  return content.endsWith('\n') ? breaks : breaks + 1;
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
