import { lstat, readlink } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { PermissionDecision } from '../permission/permission-decision.js';
import { quoted } from '../permission/quoted.js';
import type { ToolResult } from './tool.js';
import { toolError } from './tool-error.js';
import { resolveWorkspacePath, type WorkspacePath } from './workspace-path.js';

/** Parts of a path looked at for the link it passes: a refusal's message never costs more. */
const MAX_PARTS = 64;

/**
 * The refusal of a file tool's path that the rules deny where it really is (`target`, resolved by
 * `resolveWorkspacePath`): outside the workspace, or a path inside it a deny rule holds for. It
 * says which of the two, the symbolic link on the way that leads there when one does, and what
 * the user changes to allow it: confinement and the rules are the user's, so the model is told to
 * take another path and the user how to open this one (docs/permissions.md).
 *
 * @param toolName - the tool refusing, as the rules name it.
 * @param path - the path as the model gave it.
 *
 * @example
 * ```ts
 * return await pathRefusal(context.workspace, 'write', 'out/a.txt', target);
 * // ERROR: Permission denied: "/tmp/x/a.txt" is outside the workspace /ws: "out/a.txt" leads there
 * //   through the symbolic link "out" -> "/tmp/x". Use a path inside the workspace (...)
 * ```
 */
export async function pathRefusal(workspace: string, toolName: string, path: string, target: WorkspacePath): Promise<ToolResult> {
  return toolError(await pathRefusalText(workspace, toolName, path, target));
}

/**
 * The text of {@link pathRefusal}, for the gate, which refuses with a verdict rather than a
 * tool's result: one text for the same refusal, whether the gate or the tool at run time says it.
 * The gate knows which rule denies (`denial`, the rules' decision) and names it; a tool, judging
 * by `ToolContext.judgePath`, knows only that one does.
 *
 * @param toolName - the tool refused, as the rules name it.
 * @param path - the path as the model gave it.
 * @param denial - the rules' `deny` decision for the path, when the caller has it: named, and for
 *   a path outside the workspace the advice is about that deny rule, not a missing allow rule.
 *
 * @example
 * ```ts
 * await pathRefusalText('/ws', 'read', '../x.txt', await resolveWorkspacePath('/ws', '../x.txt'));
 * // 'Permission denied: "/x.txt" is outside the workspace /ws. Use a path inside the workspace (...)'
 * await pathRefusalText('/ws', 'read', 'private/a', target, policy.evaluate('read', 'private/a'));
 * // 'Permission denied: read on "private/a" is denied by rule {tool: "read", action: deny, pattern: "private/**"}. Use another path: (...)'
 * ```
 */
export async function pathRefusalText(
  workspace: string,
  toolName: string,
  path: string,
  target: WorkspacePath,
  denial?: PermissionDecision,
): Promise<string> {
  const link = await linkOnTheWay(workspace, path, target.inside ? 'any' : 'out');
  // Every name the workspace or the model chose is quoted, its line breaks and quotes escaped:
  // a link's target or a file's name cannot end the harness's sentence and speak in its place.
  const through = link === undefined ? '' : `: ${quoted(path)} leads there through the symbolic link ${quoted(link.name)} -> ${quoted(link.to)}`;
  const denied = denial === undefined ? 'denied by a rule' : deniedBy(denial);
  const parentsHold = "a delegating agent's deny holds for its subagents whatever they allow";
  if (!target.inside) {
    const outside = `Permission denied: ${quoted(target.absolute)} is outside the workspace ${workspace}${through}`;
    const allowRule = `{ tool: '${toolName}', action: 'allow', pattern: <a glob matching ${quoted(target.absolute)}> }`;
    if (denial === undefined) {
      return (
        `${outside}. Use a path inside the workspace (only an explicit allow rule lets ${toolName} reach outside it: ` +
        `the user adds one to permissionRules, ${allowRule}; approving a call never does).`
      );
    }
    // An allow rule may match too: outside the workspace any matching deny keeps the path out
    // (PermissionPolicy.allowsOutsideWorkspace), so adding one would change nothing.
    return (
      `${outside}, and ${toolName} on it is ${denied}. Use a path inside the workspace (this is the rule, ` +
      `and outside the workspace a deny rule that matches holds whatever its priority: to let ${toolName} reach it, ` +
      `the user removes the deny rule from permissionRules, the engine's or the agent definition's, or narrows its pattern so it no longer matches; ` +
      `then an explicit allow rule ${allowRule} lets it through; ${parentsHold}, and approving a call never widens the workspace).`
    );
  }
  return (
    `Permission denied: ${toolName} on ${quoted(target.relative)} is ${denied}${through}. Use another path: ` +
    `this is the rule (to allow it, the user removes the deny rule from permissionRules, the engine's or the agent definition's, ` +
    `or adds { tool: '${toolName}', action: 'allow', pattern: ${quoted(target.relative)} } with a higher priority than it; ${parentsHold}).`
  );
}

/** A deny decision's reason after "is": `denied by rule {...}`, `denied by the parent agent: ...`. */
function deniedBy(denial: PermissionDecision): string {
  // Every reason of a deny but a custom default's ("read is denied by default") starts so.
  return denial.reason.startsWith('denied') ? denial.reason : `denied (${denial.reason})`;
}

/** A symbolic link a path passes: as the path spells it, and what it points to. */
interface LinkPassed {
  readonly name: string;
  readonly to: string;
}

/**
 * The first symbolic link inside the workspace that `path` passes (`any`), or the first whose
 * own destination is outside it (`out`); `undefined` when the path leaves the workspace as
 * written (`..`, an absolute path elsewhere) or passes none. Best effort, for a message: each
 * part is looked at under the real folder of the parts before it, as the kernel walks a path.
 */
async function linkOnTheWay(workspace: string, path: string, which: 'any' | 'out'): Promise<LinkPassed | undefined> {
  const root = resolve(workspace);
  const written = isAbsolute(path) ? relative(root, path) : path;
  if (isAbsolute(written) || written.split(sep).length > MAX_PARTS) return undefined;
  const parts = written.split(sep).filter((part) => part !== '' && part !== '.');
  for (let at = 0; at < parts.length; at++) {
    const before = parts.slice(0, at).join('/') || '.';
    const parent = await resolveWorkspacePath(root, before);
    if (!parent.inside) return undefined; // it left the workspace as written, through no link
    if (parts[at] === '..') continue;
    const candidate = join(parent.absolute, parts[at]!);
    const isLink = await lstat(candidate).then((stats) => stats.isSymbolicLink(), () => undefined);
    if (isLink === undefined) return undefined; // nothing there, nor below it
    if (!isLink) continue;
    const name = parts.slice(0, at + 1).join('/');
    if (which === 'out' && (await resolveWorkspacePath(root, name)).inside) continue;
    return { name, to: await readlink(candidate).catch(() => '?') };
  }
  return undefined;
}
