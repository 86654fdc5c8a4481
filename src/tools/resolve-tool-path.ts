import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import { STRENGTH } from '../permission/permission-decision.js';
import type { PathJudge } from './path-judge.js';
import type { ToolResult } from './tool.js';
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
  if (!target.inside) {
    return toolError(
      `Permission denied: "${target.absolute}" is outside the workspace ${workspace}. ` +
        `Use a path inside the workspace (only an explicit allow rule lets ${toolName} reach outside it).`,
    );
  }
  return toolError(`Permission denied: a rule denies ${toolName} on ${target.relative}`);
}

/** Whether {@link resolveToolPath} refused. */
export function isRefusal(value: WorkspacePath | ToolResult): value is ToolResult {
  return 'text' in value;
}

/**
 * For a write: refuses when the real path is judged more strictly than the path as written
 * (`sub/pre-commit` allowed, but `sub` is now a link to `.git/hooks`, whose files ask). The
 * gate judged the path when the call was made; if a folder on the way became a link inside
 * the workspace since, nobody approved where the write would now land. A write through a
 * link that was already there is refused too (the gate asked about the real path, this
 * cannot tell): the model is told to write to the real path, which is judged as usual.
 *
 * @returns the refusal, or `undefined` when the real path is judged no more strictly.
 */
export function stricterThanWritten(workspace: string, toolName: string, path: string, target: WorkspacePath, judge: PathJudge): ToolResult | undefined {
  if (!target.inside) return undefined; // outside: only an explicit allow reaches it, checked by the deny above
  const written = relative(resolve(workspace), resolve(workspace, path));
  if (written.startsWith('..') || isAbsolute(written)) return undefined;
  const now = judge(target.relative);
  const asWritten = judge(posix.normalize(written.split(sep).join('/') || '.'));
  if (STRENGTH[now] <= STRENGTH[asWritten]) return undefined;
  return toolError(
    `${path} now leads to ${target.relative} through a symbolic link, where ${toolName} ${now === 'deny' ? 'is denied' : 'needs approval'}; ` +
      `nothing was written. Give ${target.relative} itself as the path to have it judged.`,
  );
}
