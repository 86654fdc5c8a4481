import { mkdir, readdir, symlink } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import { createEditTool } from '../../src/tools/builtin/edit.js';
import { createGlobTool } from '../../src/tools/builtin/glob.js';
import { createGrepTool } from '../../src/tools/builtin/grep.js';
import { createListTool } from '../../src/tools/builtin/list.js';
import { createReadTool } from '../../src/tools/builtin/read.js';
import { createWriteTool } from '../../src/tools/builtin/write.js';
import { pathRefusalText } from '../../src/tools/path-refusal.js';
import type { Tool, ToolContext } from '../../src/tools/tool.js';
import { resolveWorkspacePath } from '../../src/tools/workspace-path.js';
import { createToolContext, runTool } from '../support/tool-context.js';
import { workspaceBesideOutsidePerTest } from '../support/workspace-beside-outside.js';

// A file tool that refuses a path must say why: outside the workspace (and through which link)
// or denied by a rule inside it, and what the user changes to allow it. "leads outside the
// workspace or to a denied path" left the model guessing, and the user with nothing to change.
const dirs = workspaceBesideOutsidePerTest();
beforeEach(async () => {
  await dirs.root.file('ws/private/notes.txt', 'needle secret\n');
  await dirs.root.file('outside/leak.txt', 'needle OUTSIDE\n');
  await mkdir(join(dirs.ws, 'docs'));
  await symlink(dirs.outside, join(dirs.ws, 'docs/out')); // a link in a folder of the workspace, pointing out
});

/** A context judging paths as the engine does, under a real policy that denies every tool `private/**`. */
function contextWithRules(): ToolContext {
  const policy = new PermissionPolicy({ rules: [{ tool: '*', action: 'deny', pattern: 'private/**' }] });
  return createToolContext({
    workspace: dirs.ws,
    judgePath: (tool, path) => (isAbsolute(path) && !policy.allowsOutsideWorkspace(tool, path) ? 'deny' : policy.evaluate(tool, path).action),
  });
}

const write = createWriteTool() as unknown as Tool<Record<string, unknown>>;
const TOOLS: readonly [string, Tool<Record<string, unknown>>, (path: string) => Record<string, unknown>][] = [
  ['write', write, (path) => ({ path, content: 'x' })],
  ['edit', createEditTool() as unknown as Tool<Record<string, unknown>>, (path) => ({ path, old_string: 'needle', new_string: 'pin' })],
  ['read', createReadTool() as unknown as Tool<Record<string, unknown>>, (path) => ({ path })],
  ['grep', createGrepTool() as unknown as Tool<Record<string, unknown>>, (path) => ({ pattern: 'needle', path })],
  ['list', createListTool() as unknown as Tool<Record<string, unknown>>, (path) => ({ path })],
  ['glob', createGlobTool() as unknown as Tool<Record<string, unknown>>, (path) => ({ pattern: '*', path })],
];
const FILE_TOOLS = new Set(['write', 'edit', 'read', 'grep']);

describe('the refusal of a path outside the workspace', () => {
  it.each(TOOLS)('%s names the symbolic link that leads out, and how an allow rule would let it', async (name, tool, args) => {
    const path = FILE_TOOLS.has(name) ? 'docs/out/leak.txt' : 'docs/out';
    const where = FILE_TOOLS.has(name) ? join(dirs.outside, 'leak.txt') : dirs.outside;
    const result = await runTool(tool, args(path), contextWithRules());
    expect(result.error).toBe(
      `Permission denied: "${where}" is outside the workspace ${dirs.ws}: "${path}" leads there through the symbolic link "docs/out" -> "${dirs.outside}". ` +
        `Use a path inside the workspace (only an explicit allow rule lets ${name} reach outside it: ` +
        `the user adds one to permissionRules, { tool: '${name}', action: 'allow', pattern: <a glob matching "${where}"> }; approving a call never does).`,
    );
    expect(await readdir(dirs.outside)).toEqual(['leak.txt']); // nothing written there
  });

  it('names no link for a path that leaves the workspace as written', async () => {
    const result = await runTool(write, { path: '../outside/new.txt', content: 'x' }, contextWithRules());
    expect(result.error).toMatch(new RegExp(`^Permission denied: "${dirs.outside}/new\\.txt" is outside the workspace ${dirs.ws}\\. Use a path inside`));
  });
});

describe('the refusal of a path a rule denies inside the workspace', () => {
  it.each(TOOLS)('%s says a rule denies it, and how the user allows it', async (name, tool, args) => {
    const path = FILE_TOOLS.has(name) ? 'private/notes.txt' : 'private';
    const result = await runTool(tool, args(path), contextWithRules());
    expect(result.error).toBe(
      `Permission denied: ${name} on "${path}" is denied by a rule. Use another path: this is the rule ` +
        `(to allow it, the user removes the deny rule from permissionRules, the engine's or the agent definition's, ` +
        `or adds { tool: '${name}', action: 'allow', pattern: "${path}" } with a higher priority than it; a delegating agent's deny holds for its subagents whatever they allow).`,
    );
  });

  it('is the text the gate says, naming the rule that denies when the caller has the decision', async () => {
    const policy = new PermissionPolicy({ rules: [{ tool: '*', action: 'deny', pattern: 'private/**' }] });
    const target = await resolveWorkspacePath(dirs.ws, 'private/notes.txt');
    const tools = await pathRefusalText(dirs.ws, 'read', 'private/notes.txt', target);
    const gates = await pathRefusalText(dirs.ws, 'read', 'private/notes.txt', target, policy.evaluate('read', 'private/notes.txt'));
    expect(gates).toContain('read on "private/notes.txt" is denied by rule {tool: "*", action: deny, pattern: "private/**"}. Use another path');
    expect(gates).toBe(tools.replace('denied by a rule', 'denied by rule {tool: "*", action: deny, pattern: "private/**"}'));
  });

  it('names the link a denied path is reached through', async () => {
    await symlink(join(dirs.ws, 'private'), join(dirs.ws, 'docs/notes'));
    const result = await runTool(write, { path: 'docs/notes/notes.txt', content: 'x' }, contextWithRules());
    expect(result.error).toMatch(
      /^Permission denied: write on "private\/notes\.txt" is denied by a rule: "docs\/notes\/notes\.txt" leads there through the symbolic link "docs\/notes" -> ".*\/ws\/private"\. Use another path/,
    );
  });
});
