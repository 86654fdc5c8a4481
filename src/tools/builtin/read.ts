import type { FileHandle } from 'node:fs/promises';
import type { Static } from 'typebox';
import { boundedLines } from '../bounded-lines.js';
import { openChecked, readSized } from '../confined-fs.js';
import { errnoOf } from '../../errors/errno-of.js';
import { fsErrorMessage } from '../fs-error-message.js';
import { BINARY_SNIFF_BYTES, looksBinary } from '../looks-binary.js';
import { linkLoop } from '../link-loop.js';
import { pathJudge } from '../path-judge.js';
import { isRefusal, notWhereJudged, resolveToolPath } from '../resolve-tool-path.js';
import { defineTool } from '../define-tool.js';
import { schemaMemo } from '../schema-memo.js';
import { shownName } from '../shown-name.js';
import type { Tool, ToolContext, ToolResult } from '../tool.js';
import { toolError } from '../tool-error.js';
import { headOf } from '../../text/whole-chars.js';

// A JSON schema literal, typed by TypeBox's `Static` (a type-only import): the TypeBox
// builders would load ~370 modules when the package is imported (test/packaging/import-cost.test.ts).
/** The `read` tool's arguments, for a default page of `defaultLimit` lines (the model reads it). */
const readInput = schemaMemo(
  (defaultLimit: number) =>
    ({
      type: 'object',
      required: ['path'],
      properties: {
        path: { type: 'string', minLength: 1, description: 'File path, relative to the workspace.' },
        offset: { type: 'integer', minimum: 1, description: 'First line to read (1-based). Default 1.' },
        limit: { type: 'integer', minimum: 1, description: `How many lines to read. Default ${defaultLimit}.` },
      },
      additionalProperties: false,
    }) as const,
);

/**
 * Arguments of the `read` tool: the type its JSON schema gives (TypeBox's `Static`), so
 * the two cannot drift apart.
 *
 * @property path - The file to read, relative to the workspace.
 * @property offset - The first line to return, 1-based; default 1.
 * @property limit - How many lines to return at most; default {@link ReadToolOptions.defaultLimit} (2000).
 */
export interface ReadArgs extends Static<ReturnType<typeof readInput>> {}

/** Limits of the `read` tool. */
export interface ReadToolOptions {
  /** Lines returned when `limit` is not given; default 2000. */
  readonly defaultLimit?: number;
  /** Characters kept of one line; default 2000. */
  readonly maxLineLength?: number;
  /** Characters of numbered output at most; default 50,000. */
  readonly maxOutputChars?: number;
}

/**
 * Creates the `read` tool: a text file with numbered lines, like `cat -n`, paged by
 * `offset` (1-based line) and `limit`. When the output is cut, the result says which
 * offset to read on from.
 *
 * @example
 * ```ts
 * const read = createReadTool({ defaultLimit: 500 });
 * await read.execute({ path: 'src/index.ts', offset: 10 }, context);
 * ```
 */
export function createReadTool(options: ReadToolOptions = {}): Tool<ReadArgs> {
  const defaultLimit = options.defaultLimit ?? 2000;
  const maxLineLength = options.maxLineLength ?? 2000;
  const maxOutputChars = options.maxOutputChars ?? 50_000;
  return defineTool({
    name: 'read',
    description:
      `Reads a text file of the workspace and returns its lines numbered like \`cat -n\`. ` +
      `Reads up to ${defaultLimit} lines from \`offset\` (1-based line, default 1); for a long file, ` +
      `read on from the offset the result names. Binary files are refused.`,
    input: readInput(defaultLimit),
    subject: (args) => args.path,
    paths: (args) => [args.path],
    async execute(args, context) {
      const offset = args.offset ?? 1;
      const limit = args.limit ?? defaultLimit;
      return readNumbered(args.path, context, { offset, limit, maxLineLength, maxOutputChars });
    },
  });
}

interface Page {
  readonly offset: number;
  readonly limit: number;
  readonly maxLineLength: number;
  readonly maxOutputChars: number;
}

async function readNumbered(path: string, context: ToolContext, page: Page): Promise<ToolResult> {
  // Resolved again now: a folder on the way may have become a link since the gate checked it.
  const judge = pathJudge(context, 'read');
  const target = await resolveToolPath(context.workspace, 'read', path, judge);
  if (isRefusal(target)) return target;
  // The file a human approved may have become a link (to `.env`) while the approval was pending.
  const swapped = notWhereJudged(context, 'read', path, target, judge);
  if (swapped) return swapped;
  // Every message names the path as the search tools print one: a line break or a bidi
  // override in it (one a planted file name handed the model) is escaped, a plain path as given.
  const shown = shownName(path);
  let handle: FileHandle | undefined;
  try {
    handle = await openChecked(target.absolute, 'read');
  } catch (error) {
    const loop = await linkLoop(error, target.absolute, shown, 'read');
    if (loop) return loop;
    if (errnoOf(error) !== 'ELOOP') return toolError(fsErrorMessage(error, shown));
  }
  if (handle === undefined) {
    return toolError(`${shown} became a symbolic link, or a folder on its way did, as it was opened, so nothing was read; check where it leads and read again`);
  }
  try {
    // Everything through the handle checked to be the file at the path: a swap meanwhile shows nothing else.
    return await readOpened(handle, shown, context, page);
  } catch (error) {
    return toolError(fsErrorMessage(error, shown));
  } finally {
    await handle.close();
  }
}

/** Reads the page from the open file; `shown` is its path as messages name it (`shownName`). */
async function readOpened(handle: FileHandle, shown: string, context: ToolContext, page: Page): Promise<ToolResult> {
  const stats = await handle.stat();
  if (stats.isDirectory()) return toolError(`${shown} is a folder, not a file; use the list tool to see its entries`);
  if (!stats.isFile()) return toolError(`${shown} is not a regular file`);
  if (stats.size === 0) return { text: `(${shown} is empty)` };
  if (looksBinary(await readSized(handle, Math.min(stats.size, BINARY_SNIFF_BYTES)))) {
    return toolError(`${shown} looks like a binary file (${stats.size} bytes); read only shows text files`);
  }

  // A stream given a signal already fired emits its AbortError a tick later, after the loop
  // below has let go of it: with no listener left, that error would crash the process.
  context.signal.throwIfAborted();
  // The stream leaves the handle open: the caller closes it once the stream is done with it.
  const stream = handle.createReadStream({ encoding: 'utf8', start: 0, autoClose: false, signal: context.signal });
  // Kept for the stream's whole life: an error after the loop has stopped reading (a cancel
  // just then) is harmless; one during the loop reaches it through the iteration.
  stream.on('error', () => undefined);
  // One more character than is shown, so that `cutLine` sees where a character ends.
  const lines = boundedLines(stream as AsyncIterable<string>, page.maxLineLength + 1);
  const out: string[] = [];
  let size = 0;
  let lineNo = 0;
  let more = false;
  let capped = false;
  try {
    for await (const line of lines) {
      lineNo += 1;
      if (lineNo < page.offset) continue;
      if (out.length >= page.limit) {
        more = true;
        break;
      }
      const numbered = `${String(lineNo).padStart(6)}\t${cutLine(line.head, line.length, page.maxLineLength)}`;
      if (out.length > 0 && size + numbered.length + 1 > page.maxOutputChars) {
        capped = true;
        break;
      }
      out.push(numbered);
      size += numbered.length + 1;
    }
  } catch (error) {
    return toolError(fsErrorMessage(error, shown));
  } finally {
    await lines.return(undefined);
    stream.destroy();
  }

  if (out.length === 0) {
    return toolError(`offset ${page.offset} is past the end of ${shown} (${lineNo} lines)`);
  }
  const last = page.offset + out.length - 1;
  let text = out.join('\n');
  if (capped) {
    text += `\n\n(Output capped at ${page.maxOutputChars} characters after line ${last}. To read on, call read with offset ${last + 1}.)`;
  } else if (more) {
    text += `\n\n(Showing lines ${page.offset}-${last}; the file has more. To read on, call read with offset ${last + 1}.)`;
  }
  return { text };
}

/** A line of `length` characters, of which `head` is the start, cut to `max`. */
function cutLine(head: string, length: number, max: number): string {
  if (length <= max) return head;
  const kept = headOf(head, max);
  return `${kept}… [line cut: ${length - kept.length} more characters]`;
}
