import { beforeEach, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import type { PermissionRule } from '../../src/permission/permission-rule.js';
import { createGlobTool } from '../../src/tools/builtin/glob.js';
import { createGrepTool } from '../../src/tools/builtin/grep.js';
import { createListTool } from '../../src/tools/builtin/list.js';
import type { ToolContext } from '../../src/tools/tool.js';
import { createToolContext, runTool } from '../support/tool-context.js';
import { workspaceBesideOutsidePerTest } from '../support/workspace-beside-outside.js';

// Item 10 of the hardening issue, at the tools: every file a search reads or lists is
// judged by the rules (through ToolContext.judgePath), not only the folder it was given.

const dirs = workspaceBesideOutsidePerTest();
const grep = createGrepTool();
const glob = createGlobTool();
const list = createListTool();

beforeEach(async () => {
  await dirs.root.file('ws/notes.md', 'needle in notes\n');
  await dirs.root.file('ws/secret/key.txt', 'needle SECRET\n');
  await dirs.root.file('ws/.env', 'needle=TOKEN\n');
  await dirs.root.file('outside/a.txt', 'needle outside a\n');
  await dirs.root.file('outside/b.log', 'needle outside b\n');
});

/** A context judging paths the way the engine's does: a policy of these rules (outside paths need an explicit allow). */
function judged(rules: PermissionRule[]): ToolContext {
  const policy = new PermissionPolicy({ rules });
  return createToolContext({
    workspace: dirs.ws,
    judgePath: (tool, path) => (path.startsWith('/') && !policy.allowsOutsideWorkspace(tool, path) ? 'deny' : policy.evaluate(tool, path).action),
  });
}

describe('searches judge every file they read or list', () => {
  it('a deny leaves the file out silently, in grep, glob and list', async () => {
    const context = judged([{ tool: '*', action: 'deny', pattern: 'secret/**' }]);
    expect((await runTool(grep, { pattern: 'needle', include: '*.{md,txt}' }, context)).text).toBe('notes.md:1: needle in notes');
    expect((await runTool(glob, { pattern: '**/*.{md,txt}' }, context)).text).toBe('notes.md');
    expect((await runTool(list, {}, context)).text).toBe('.env\nnotes.md');
  });

  it('an ask leaves the file out with a note counting them, and asks nobody', async () => {
    const context = judged([{ tool: '*', action: 'ask', pattern: '**/*.md' }]);
    expect((await runTool(glob, { pattern: '*.md' }, context)).text).toBe(
      'No files match *.md in .\n\n(1 file needing approval was left out; read one by its path to be asked.)',
    );
    expect((await runTool(list, {}, context)).text).toBe(
      '.env\nsecret/\n\n(1 entry needing approval was left out; read one by its path to be asked.)',
    );
    const searched = await runTool(grep, { pattern: 'needle' }, context);
    expect(searched.text).toBe(
      'secret/key.txt:1: needle SECRET\n\n(2 files needing approval were left out; to search one, give it as path, which asks for approval.)',
    );
  });

  it('an outside folder an allow rule opens is searched only where the rules allow each file', async () => {
    const context = judged([
      { tool: 'grep', action: 'allow', pattern: dirs.outside },
      { tool: 'grep', action: 'allow', pattern: `${dirs.outside}/*.txt` },
    ]);
    expect((await runTool(grep, { pattern: 'needle', path: dirs.outside }, context)).text).toBe(`${dirs.outside}/a.txt:1: needle outside a`);
  });
});

describe('a context without judgePath (built by hand)', () => {
  it('judges by the default rules: grep leaves .env out, glob lists it', async () => {
    const context = createToolContext({ workspace: dirs.ws });
    expect((await runTool(grep, { pattern: 'needle', include: '.env' }, context)).text).toContain('(1 file needing approval was left out;');
    expect((await runTool(glob, { pattern: '.env' }, context)).text).toBe('.env');
  });

  it('keeps every outside path out', async () => {
    const context = createToolContext({ workspace: dirs.ws });
    const calls = [
      [grep, { pattern: 'needle', path: dirs.outside }],
      [glob, { pattern: '*', path: '../outside' }],
      [list, { path: dirs.outside }],
    ] as const;
    for (const [tool, args] of calls) {
      const result = await runTool(tool as typeof list, args, context);
      expect(result.error).toBe(
        `Permission denied: "${dirs.outside}" is outside the workspace ${dirs.ws}. ` +
          `Use a path inside the workspace (only an explicit allow rule lets ${tool.name} reach outside it: ` +
          `the user adds one to permissionRules, { tool: '${tool.name}', action: 'allow', pattern: <a glob matching "${dirs.outside}"> }; approving a call never does).`,
      );
    }
  });
});
