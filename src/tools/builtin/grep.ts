import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Static } from 'typebox';
import { defineTool } from '../define-tool.js';
import { readTextAt } from '../confined-fs.js';
import { fsErrorMessage } from '../fs-error-message.js';
import { approvalNote, judgePaths, pathJudge } from '../path-judge.js';
import { searchStopped, startLineMatcher } from './line-matcher.js';
import { relativeSearchMatcher } from '../relative-glob.js';
import { findSearchFiles, joinRelative, skippedFoldersText } from '../search-files.js';
import { searchMatcher } from '../search-walk.js';
import { readAhead } from '../read-ahead.js';
import { isRefusal, notWhereJudged, resolveToolPath } from '../resolve-tool-path.js';
import { shownLine, shownName } from '../shown-name.js';
import type { Tool, ToolResult } from '../tool.js';
import { toolError } from '../tool-error.js';
import { errorMessage } from '../../errors/error-message.js';
import { headOf } from '../../text/whole-chars.js';

// A JSON schema literal, typed by TypeBox's `Static` (a type-only import): the TypeBox
// builders would load ~370 modules when the package is imported (test/packaging/import-cost.test.ts).
const GREP_INPUT = {
  type: 'object',
  required: ['pattern'],
  properties: {
    pattern: { type: 'string', minLength: 1, description: 'JavaScript regular expression (no slashes, no flags).' },
    path: { type: 'string', minLength: 1, description: 'Folder or file to search, relative to the workspace. Default ".".' },
    include: { type: 'string', minLength: 1, description: 'Only search files matching this glob, e.g. "*.ts" or "src/**/*.js".' },
  },
  additionalProperties: false,
} as const;

/**
 * Arguments of the `grep` tool: the type its JSON schema gives (TypeBox's `Static`), so
 * the two cannot drift apart.
 *
 * @property pattern - A JavaScript regular expression, without slashes or flags, matched against each line.
 * @property path - The folder or file to search, relative to the workspace; default the workspace itself.
 * @property include - Only files matching this glob are searched (e.g. `*.ts`); default every file.
 */
export interface GrepArgs extends Static<typeof GREP_INPUT> {}

/** Limits of the `grep` tool. */
export interface GrepToolOptions {
  /** Matching lines shown at most; default 200. */
  readonly maxMatches?: number;
  /** Characters kept of a matching line; default 300. */
  readonly maxLineLength?: number;
  /** Larger files are skipped; default 5 MB. */
  readonly maxFileBytes?: number;
}

/** Files read ahead of the matcher: a few, so memory stays at a few files' worth. */
const READ_AHEAD = 8;

/**
 * Creates the `grep` tool: a JavaScript regular expression searched line by line through
 * the files under a folder (or one file), answered as `path:line: text` lines. `include`
 * filters files by glob; the folders `node_modules`, `.git` and `.rxharness/sessions`, binary
 * and very large files are skipped
 * (one named as `path` is refused with an error saying why, not answered "No matches"),
 * and symbolic links are never followed, not even one `include` names.
 * In a folder search each file is judged by the permission rules for `grep`
 * (`ToolContext.judgePath`): a denied file is left out silently, and one needing approval
 * (a `.env` file, by default) is left out with a note, so a search never asks dozens of
 * questions nor bypasses one; naming such a file as `path` searches it after approval.
 * Every file is opened first and read only if it really lies where the search found it.
 * Stopped by its signal (a cancel, the tool timeout) at any point before it has matched every
 * file, it fails with "the search was stopped", never a partial answer such as "No matches".
 * A path that could be misread (a line break, a control or bidi character, a `:` and digit...)
 * is printed JSON-quoted, so no line reads as a match in another file. A matched line holding
 * a line break other than `\n` (`\r`, NEL, U+2028), another control but a tab, or a format
 * character such as a bidi override is printed JSON-quoted whole, those escaped as `quoted`
 * escapes them (`shownLine`), so a match never reads as two lines or backwards; so is one that
 * starts and ends with `"`. A printed line that starts and ends with `"` is JSON, any other is
 * the line as it is (a `\r` in it is the file's own two characters).
 *
 * @example
 * ```ts
 * await createGrepTool().execute({ pattern: 'TODO\\b', include: '*.ts' }, context);
 * // { text: 'src/a.ts:12: // TODO remove' }
 * ```
 */
export function createGrepTool(options: GrepToolOptions = {}): Tool<GrepArgs> {
  const limits = {
    maxMatches: options.maxMatches ?? 200,
    maxLineLength: options.maxLineLength ?? 300,
    maxFileBytes: options.maxFileBytes ?? 5 * 1024 * 1024,
  };
  return defineTool({
    name: 'grep',
    description:
      'Searches file contents with a JavaScript regular expression, line by line, under a folder ' +
      '(or in one file) of the workspace. include filters files by glob (e.g. "*.ts"). ' +
      `Answers "path:line: text" lines; skips binary files and the folders ${skippedFoldersText()}.`,
    input: GREP_INPUT,
    subject: (args) => args.path ?? '.',
    paths: (args) => [args.path ?? '.'],
    async execute({ pattern, path = '.', include }, context) {
      const patternProblem = regexProblem(pattern);
      if (patternProblem) return toolError(patternProblem);
      // An include of a bare name (`*.ts`) is matched at any depth.
      const included = include === undefined ? searchMatcher('**/*') : relativeSearchMatcher(include, 'include', include.includes('/') ? include : `**/${include}`);
      if (typeof included === 'string') return toolError(included);

      const judge = pathJudge(context, 'grep');
      const root = await resolveToolPath(context.workspace, 'grep', path, judge);
      if (isRefusal(root)) return root;
      // The file (or folder) approved may have become a link elsewhere while the approval was pending.
      const swapped = notWhereJudged(context, 'grep', path, root, judge);
      if (swapped) return swapped;
      let files: { absolute: string; shown: string }[];
      let asked = 0;
      try {
        const stats = await stat(root.absolute);
        if (stats.isDirectory()) {
          let found: string[];
          try {
            found = await findSearchFiles(root.absolute, included, context.signal);
          } catch (error) {
            // Not the folder's fault (the walk skips what it cannot read): say so as glob does, never "Cannot access".
            if (context.signal.aborted) throw searchStopped();
            return toolError(`Search failed in ${shownName(path)}: ${errorMessage(error)}`);
          }
          const all = found.map((file) => ({ absolute: join(root.absolute, file), shown: joinRelative(root.relative, file) }));
          ({ allowed: files, asked } = judgePaths(all, (file) => file.shown, judge));
        } else {
          // A file named on its own is searched or refused, never answered "No matches" unread.
          const unsearchable = unsearchableFile(shownName(path), stats, limits.maxFileBytes);
          if (unsearchable) return toolError(unsearchable);
          files = [{ absolute: root.absolute, shown: root.relative }];
        }
      } catch (error) {
        if (context.signal.aborted) throw searchStopped();
        return toolError(fsErrorMessage(error, shownName(path)));
      }
      // A walk stopped by the signal ends quietly with what it had found (maybe nothing).
      if (context.signal.aborted) throw searchStopped();

      // One match more than shown, so the result can say that there are more.
      const matches: string[] = [];
      const matcher = startLineMatcher(pattern, context.signal);
      try {
        for await (const [file, text] of readAhead(files, (f) => readTextAt(f.absolute, limits.maxFileBytes), READ_AHEAD)) {
          // Stopped before every file was matched: what was found so far is no answer ("No matches" would lie).
          if (context.signal.aborted) throw searchStopped();
          if (matches.length > limits.maxMatches) break;
          if (text === undefined) {
            if (file.absolute === root.absolute) return toolError(`${shownName(path)} looks like a binary file (or changed while it was read); grep searches text`);
            continue;
          }
          for (const [index, line] of await matcher.match(text, limits.maxMatches - matches.length)) {
            matches.push(`${shownName(file.shown)}:${index + 1}: ${shownLine(cut(line, limits.maxLineLength))}`);
          }
        }
      } finally {
        void matcher.close(); // its thread exits on its own time; nothing here waits for it
      }
      const skipped = approvalNote(asked, 'file', 'to search one, give it as path, which asks for approval');
      return withNote(render(matches, limits.maxMatches, pattern, shownName(path)), skipped);
    },
  });
}

/** Why the file `path` cannot be searched (not a regular file, over `maxBytes`), or undefined. */
function unsearchableFile(path: string, stats: Stats, maxBytes: number): string | undefined {
  if (!stats.isFile()) return `${path} is not a regular file or folder (a pipe, a socket or a device); grep searches files`;
  if (stats.size > maxBytes) return `${path} is ${stats.size} bytes, more than grep searches (${maxBytes}); use read with offset and limit, or narrow it down with bash`;
  return undefined;
}

/** Why `pattern` does not compile (checked here: the worker that runs it cannot say so well). */
function regexProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    const detail = errorMessage(error);
    return `${detail}. pattern is a JavaScript regular expression: escape ( [ { . * + ? \\ | with a backslash to match them literally`;
  }
}

function render(matches: readonly string[], max: number, pattern: string, path: string): ToolResult {
  if (matches.length === 0) return { text: `No matches for /${pattern}/ in ${path}` };
  if (matches.length <= max) return { text: matches.join('\n') };
  return {
    text: `${matches.slice(0, max).join('\n')}\n\n(Showing the first ${max} matches; there are more. Narrow the pattern, path or include.)`,
  };
}

function withNote(result: ToolResult, note: string): ToolResult {
  return note === '' ? result : { ...result, text: result.text + note };
}

/** The matched line trimmed and cut to `max` characters of the file's text (escaped after, so no escape is cut in two). */
function cut(line: string, max: number): string {
  const trimmed = line.trim();
  return trimmed.length <= max ? trimmed : `${headOf(trimmed, max)}…`;
}
