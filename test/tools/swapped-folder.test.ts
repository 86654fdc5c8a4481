import { readFile, rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEditTool } from '../../src/tools/builtin/edit.js';
import { createGlobTool } from '../../src/tools/builtin/glob.js';
import { createGrepTool } from '../../src/tools/builtin/grep.js';
import { createListTool } from '../../src/tools/builtin/list.js';
import { createReadTool } from '../../src/tools/builtin/read.js';
import { createToolContext, makeWorkspace, runTool, type TestToolContext, type TestWorkspace } from '../support/tool-context.js';

// The executor's gate resolved `sub` while it was a real folder; by the time the tool runs
// (after an approval, say) it has become a link out of the workspace. Each tool resolves
// its path again when it runs: calling it directly plays that moment.

let root: TestWorkspace;
let ws: string;
let context: TestToolContext;

beforeEach(async () => {
  root = await makeWorkspace();
  ws = join(root.dir, 'ws');
  await root.file('ws/sub/inner.txt', 'needle inside\n');
  await root.file('outside/leak.txt', 'needle OUTSIDE\n');
  await rename(join(ws, 'sub'), join(root.dir, 'moved'));
  await symlink(join(root.dir, 'outside'), join(ws, 'sub'));
  context = createToolContext({ workspace: ws });
});
afterEach(() => root.cleanup());

const OUTSIDE = /^Permission denied: ".*\/outside(\/leak\.txt)?" is outside the workspace /;

describe('a folder that became a link after the gate judged it', () => {
  it('list refuses it and lists nothing outside', async () => {
    const result = await runTool(createListTool(), { path: 'sub' }, context);
    expect(result.error).toMatch(OUTSIDE);
    expect(result.text).toBe(`ERROR: ${result.error}`); // no entry listed
  });

  it('glob refuses it', async () => {
    const result = await runTool(createGlobTool(), { pattern: '**/*', path: 'sub' }, context);
    expect(result.error).toMatch(OUTSIDE);
  });

  it('grep refuses it, as a folder and as a file', async () => {
    for (const path of ['sub', 'sub/leak.txt']) {
      const result = await runTool(createGrepTool(), { pattern: 'needle', path }, context);
      expect(result.error, path).toMatch(OUTSIDE);
      expect(result.text, path).not.toContain('needle OUTSIDE');
    }
  });

  it('read refuses it', async () => {
    const result = await runTool(createReadTool(), { path: 'sub/leak.txt' }, context);
    expect(result.error).toMatch(OUTSIDE);
    expect(result.text).not.toContain('needle OUTSIDE');
  });

  it('edit refuses it and changes nothing outside', async () => {
    const result = await runTool(createEditTool(), { path: 'sub/leak.txt', old_string: 'OUTSIDE', new_string: 'edited' }, context);
    expect(result.error).toMatch(OUTSIDE);
    expect(await readFile(join(root.dir, 'outside/leak.txt'), 'utf8')).toBe('needle OUTSIDE\n');
  });
});
