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
