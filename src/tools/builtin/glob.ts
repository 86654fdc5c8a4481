import { stat } from 'node:fs/promises';
import type { Static } from 'typebox';
import { defineTool } from '../define-tool.js';
import { fsErrorMessage } from '../fs-error-message.js';
import { approvalNote, judgePaths, pathJudge } from '../path-judge.js';
import { relativeSearchMatcher } from '../relative-glob.js';
import { searchStopped } from './line-matcher.js';
import { findSearchFiles, joinRelative, skippedFoldersText } from '../search-files.js';
import { isRefusal, notWhereJudged, resolveToolPath } from '../resolve-tool-path.js';
import { shownName } from '../shown-name.js';
import type { Tool } from '../tool.js';
import { toolError } from '../tool-error.js';
import { errorMessage } from '../../errors/error-message.js';

// A JSON schema literal, typed by TypeBox's `Static` (a type-only import): the TypeBox
// builders would load ~370 modules when the package is imported (test/packaging/import-cost.test.ts).
const GLOB_INPUT = {
  type: 'object',
  required: ['pattern'],
  properties: {
    pattern: { type: 'string', minLength: 1, description: 'Glob pattern, relative to path.' },
    path: { type: 'string', minLength: 1, description: 'Folder to search, relative to the workspace. Default ".".' },
  },
  additionalProperties: false,
} as const;

/**
 * Arguments of the `glob` tool: the type its JSON schema gives (TypeBox's `Static`), so
 * the two cannot drift apart.
 *
 * @property pattern - The glob to match, relative to `path` (e.g. `*.test.ts`; `**` matches across folders).
 * @property path - The folder to search, relative to the workspace; default the workspace itself.
 */
export interface GlobArgs extends Static<typeof GLOB_INPUT> {}

/** Limits of the `glob` tool. */
export interface GlobToolOptions {
  /** Paths shown at most; default 1000. */
  readonly maxResults?: number;
}

/**
 * Creates the `glob` tool: files matching a glob under a folder, as sorted paths relative to
 * the workspace. The folders `node_modules`, `.git` and `.rxharness/sessions` are skipped (the
 * description the model reads names them from one list) and symbolic links are not followed,
 * not even one the pattern names, so a search never wanders out of the workspace through a
 * link. The folder, resolved again when the call runs, must be where the call was judged
 * (or one the rules allow): one swapped for a link while its approval waited is refused, not
 * searched. Each file found is judged by the permission rules for `glob`
 * (`ToolContext.judgePath`): a denied one is left out silently, one needing approval
 * is left out and counted in a note. Stopped by its signal (a cancel, the tool timeout)
 * before the walk ends, it fails with "the search was stopped", never a partial list.
 * A path that could be misread (a line break, a control or bidi character, a `:` and digit...)
 * is printed JSON-quoted; one whose bytes are not UTF-8, which no tool could name, is left out.
 *
 * @example
 * ```ts
 * await createGlobTool().execute({ pattern: '*.test.ts', path: 'test' }, context);
 * ```
 */
export function createGlobTool(options: GlobToolOptions = {}): Tool<GlobArgs> {
  const maxResults = options.maxResults ?? 1000;
  return defineTool({
    name: 'glob',
    description:
      'Finds files by name with a glob pattern (e.g. "**/*.ts", "src/**/index.{js,ts}") under a folder ' +
      `of the workspace. Returns sorted paths relative to the workspace; skips the folders ${skippedFoldersText()}.`,
    input: GLOB_INPUT,
    subject: (args) => args.path ?? '.',
    paths: (args) => [args.path ?? '.'],
    async execute({ pattern, path = '.' }, context) {
      const matcher = relativeSearchMatcher(pattern, 'pattern');
      if (typeof matcher === 'string') return toolError(matcher);
      const judge = pathJudge(context, 'glob');
      const root = await resolveToolPath(context.workspace, 'glob', path, judge);
      if (isRefusal(root)) return root;
      // The folder approved may have become a link elsewhere while the approval was pending.
      const swapped = notWhereJudged(context, 'glob', path, root, judge);
      if (swapped) return swapped;
      try {
        if (!(await stat(root.absolute)).isDirectory()) return toolError(`${shownName(path)} is a file, not a folder to search`);
      } catch (error) {
        return toolError(fsErrorMessage(error, shownName(path)));
      }
      let found: string[];
      try {
        found = await findSearchFiles(root.absolute, matcher, context.signal);
      } catch (error) {
        if (context.signal.aborted) throw searchStopped();
        return toolError(`Search failed in ${shownName(path)}: ${errorMessage(error)}`);
      }
      // A walk stopped by the signal ends quietly with what it had found: no answer ("No files match" would lie).
      if (context.signal.aborted) throw searchStopped();
      const { allowed: paths, asked } = judgePaths(found.map((file) => joinRelative(root.relative, file)), (p) => p, judge);
      const skipped = approvalNote(asked, 'file', 'read one by its path to be asked');
      if (paths.length === 0) return { text: `No files match ${pattern} in ${shownName(path)}${skipped}` };
      const shown = paths.slice(0, maxResults);
      const rest = paths.length - shown.length;
      const note = rest > 0 ? `\n\n(${rest} more files not shown; use a narrower pattern or path.)` : '';
      return { text: shown.map(shownName).join('\n') + note + skipped };
    },
  });
}
