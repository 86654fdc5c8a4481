import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import type { PathJudge } from './path-judge.js';
import { pathRefusal } from './path-refusal.js';
import { shownName } from './shown-name.js';
import type { ToolContext, ToolResult } from './tool.js';
import { toolError } from './tool-error.js';
import { resolveWorkspacePath, type WorkspacePath } from './workspace-path.js';

/**
 * Resolves the folder (or file) a tool was given, again, at the moment it runs, and judges
 * it once more. The executor's gate checked it before, but a folder on the way may have
 * been swapped for a symbolic link since (by an earlier command, a sibling task, while an
 * approval was pending): what the tool would now touch must still be inside the workspace,
 * or explicitly allowed, and not denied.
 *
 * @returns where the path really is, or a failed result saying why the tool will not touch it.
 *
 * @example
 * ```ts
 * const root = await resolveToolPath(context.workspace, 'grep', path, pathJudge(context, 'grep'));
 * if ('error' in root) return root;
 * ```
 */
export async function resolveToolPath(
  workspace: string,
  toolName: string,
  path: string,
  judge: PathJudge,
): Promise<WorkspacePath | ToolResult> {
  const target = await resolveWorkspacePath(workspace, path);
  if (judge(target.relative) !== 'deny') return target;
  // Outside, or denied inside: the refusal says which, through which link, and how the user allows it.
  return pathRefusal(workspace, toolName, path, target);
}

/** Whether {@link resolveToolPath} refused. */
export function isRefusal(value: WorkspacePath | ToolResult): value is ToolResult {
  return 'text' in value;
}

/**
 * For a read, a grep, a list, a glob, a write or an edit: refuses when the path now leads
 * somewhere other than where the gate judged it ({@link ToolContext.judgedPaths}) and the
 * rules do not allow that place outright. The gate resolved the path when the call was made
 * and the rules (or a human) allowed that place; if it, or a folder on the way, has become a
 * link since (an earlier command, a sibling task, while an approval was pending), nobody
 * judged where the call would now read, search or land. A context without `judgedPaths` (built by hand) compares with
 * the path as written.
 *
 * @returns the refusal, or `undefined` when the call touches where it was judged, or where the rules allow.
 *
 * @example
 * ```ts
 * const moved = notWhereJudged(context, 'write', path, target, pathJudge(context, 'write'));
 * if (moved) return moved;
 * ```
 */
export function notWhereJudged(context: ToolContext, toolName: string, path: string, target: WorkspacePath, judge: PathJudge): ToolResult | undefined {
  const judged = context.judgedPaths?.[0] ?? asWritten(context.workspace, path);
  if (target.relative === judged) return undefined;
  const now = judge(target.relative);
  if (now === 'allow') return undefined;
  // Both names as the tools print them: a line break or a bidi override in one is escaped.
  const there = shownName(target.relative);
  return toolError(
    `${shownName(path)} now leads to ${there} through a symbolic link, where ${toolName} ${now === 'deny' ? 'is denied' : 'needs approval'}; ` +
      `nothing was ${UNDONE[toolName] ?? 'written'}. Give ${there} itself as the path to have it judged.`,
  );
}

/** What a refused call did not do, by tool (a write or an edit: "written"). */
const UNDONE: Readonly<Record<string, string>> = { read: 'read', grep: 'searched', list: 'listed', glob: 'searched' };

/** The path as written, in the subject form, when it names a place inside the workspace. */
function asWritten(workspace: string, path: string): string | undefined {
  const written = relative(resolve(workspace), resolve(workspace, path));
  if (written.startsWith('..') || isAbsolute(written)) return undefined;
  return posix.normalize(written.split(sep).join('/') || '.');
}
