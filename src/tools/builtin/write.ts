import { constants } from 'node:fs';
import { mkdir, open, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Static } from 'typebox';
import { errnoOf } from '../../errors/errno-of.js';
import { defineTool } from '../define-tool.js';
import { fsErrorMessage } from '../fs-error-message.js';
import type { Tool } from '../tool.js';
import { toolError } from '../tool-error.js';
import { pathJudge } from '../path-judge.js';
import { notWhereJudged } from '../resolve-tool-path.js';
import { resolveWorkspacePath } from '../workspace-path.js';

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

// Where the platform has it, the final path is opened without following a link (ELOOP if it
// is one): a link swapped in after the path was resolved cannot redirect the write.
const OPEN_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0);

/**
 * Creates the `write` tool: writes a whole file (UTF-8), creating missing parent folders,
 * and says how many bytes and lines it wrote. The path is resolved again when the tool runs
 * and refused if it now leads somewhere the rules deny, or somewhere other than where the gate
 * judged it that the rules do not allow outright (a link swapped in since the call was checked
 * or approved); the file is then opened without following a link in its last part. A folder on
 * the way swapped for a link at the very last moment is not caught (Node has no `openat`).
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
      const target = await resolveWorkspacePath(context.workspace, path);
      // The gate checked the path a moment ago; a link swapped in since could lead elsewhere.
      const verdict = context.judgePath ? context.judgePath('write', target.relative) : target.inside ? 'allow' : 'deny';
      if (verdict === 'deny') {
        return toolError(`${path} leads outside the workspace or to a denied path (${target.absolute}); write to a file inside the workspace`);
      }
      const swapped = notWhereJudged(context, 'write', path, target, pathJudge(context, 'write'));
      if (swapped) return swapped;
      let existed = false;
      try {
        const stats = await stat(target.absolute);
        if (stats.isDirectory()) return toolError(`${path} is a folder; give a file path to write`);
        existed = true;
      } catch {
        // Not there yet: it will be created.
      }
      try {
        await mkdir(dirname(target.absolute), { recursive: true });
        const file = await open(target.absolute, OPEN_FLAGS, 0o666);
        try {
          await writeFile(file, content, { encoding: 'utf8', signal: context.signal });
        } finally {
          await file.close();
        }
      } catch (error) {
        if (errnoOf(error) === 'ELOOP') {
          return toolError(`${path} became a symbolic link while it was being written, so nothing was written; check what it points to and write again`);
        }
        return toolError(fsErrorMessage(error, path));
      }
      const bytes = Buffer.byteLength(content, 'utf8');
      const lines = countLines(content);
      const verb = existed ? 'Overwrote' : 'Created';
      return { text: `${verb} ${target.relative} (${plural(bytes, 'byte')}, ${plural(lines, 'line')})` };
    },
  });
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
