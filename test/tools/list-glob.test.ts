import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGlobTool } from '../../src/tools/builtin/glob.js';
import { createListTool } from '../../src/tools/builtin/list.js';
import { createToolContext, makeWorkspace, runTool, type TestToolContext, type TestWorkspace } from '../support/tool-context.js';

let root: TestWorkspace;
let ws: string;
let context: TestToolContext;

beforeEach(async () => {
  root = await makeWorkspace();
  ws = join(root.dir, 'ws');
  await root.file('ws/b.txt', 'b');
  await root.file('ws/a.ts', 'a');
  await root.file('ws/.env', 'SECRET=1');
  await root.file('ws/src/index.ts', 'x');
  await root.file('ws/src/deep/util.ts', 'x');
  await root.file('ws/node_modules/pkg/index.ts', 'x');
  await root.file('ws/.git/HEAD', 'ref');
  await root.file('outside/leak.ts', 'x');
  context = createToolContext({ workspace: ws });
});
afterEach(() => root.cleanup());

describe('list tool', () => {
  const list = createListTool();

  it('lists the workspace root sorted, folders marked with /', async () => {
    const result = await runTool(list, {}, context);
    expect(result.text.split('\n')).toEqual(['.env', '.git/', 'a.ts', 'b.txt', 'node_modules/', 'src/']);
  });

  it('lists a sub-folder and marks symbolic links', async () => {
    await symlink(join(root.dir, 'outside'), join(ws, 'src/out'));
    await symlink(join(ws, 'a.ts'), join(ws, 'src/a-link.ts'));
    const result = await runTool(list, { path: 'src' }, context);
    expect(result.text.split('\n')).toEqual(['a-link.ts@', 'deep/', 'index.ts', 'out@/']);
  });

  it('caps the number of entries with a note', async () => {
    const result = await runTool(createListTool({ maxEntries: 2 }), {}, context);
    expect(result.text).toBe('.env\n.git/\n\n(4 more entries not shown; use glob to narrow the search.)');
  });

  it('reports a missing folder, a file and an empty folder', async () => {
    expect((await runTool(list, { path: 'nope' }, context)).error).toBe('File not found: nope');
    expect((await runTool(list, { path: 'a.ts' }, context)).error).toMatch(/a\.ts is a file, not a folder/);
    await mkdir(join(ws, 'empty'));
    expect(await runTool(list, { path: 'empty' }, context)).toEqual({ text: '(empty is empty)' });
  });

  it('touches path or "."', () => {
    expect(list.paths?.({})).toEqual(['.']);
    expect(list.paths?.({ path: 'src' })).toEqual(['src']);
  });
});

describe('glob tool', () => {
  const glob = createGlobTool();

  it('finds files sorted and relative to the workspace, skipping node_modules and .git', async () => {
    const result = await runTool(glob, { pattern: '**/*.ts' }, context);
    expect(result.text.split('\n')).toEqual(['a.ts', 'src/deep/util.ts', 'src/index.ts']);
  });

  it('includes dot files', async () => {
    expect((await runTool(glob, { pattern: '.env*' }, context)).text).toBe('.env');
  });

  it('searches below path and still answers workspace-relative paths', async () => {
    const result = await runTool(glob, { pattern: '**/*.ts', path: 'src' }, context);
    expect(result.text.split('\n')).toEqual(['src/deep/util.ts', 'src/index.ts']);
  });

  it('does not follow a symbolic link out of the workspace', async () => {
    await symlink(join(root.dir, 'outside'), join(ws, 'linked'));
    const result = await runTool(glob, { pattern: '**/*.ts' }, context);
    expect(result.text).not.toContain('leak.ts');
  });

  it('refuses patterns that climb out with .. or are absolute', async () => {
    const up = await runTool(glob, { pattern: '../**/*.ts' }, context);
    expect(up.error).toMatch(/must not contain "\.\."/);
    const absolute = await runTool(glob, { pattern: '/etc/*' }, context);
    expect(absolute.error).toMatch(/must be relative/);
  });

  it('caps results with a note', async () => {
    const result = await runTool(createGlobTool({ maxResults: 1 }), { pattern: '**/*.ts' }, context);
    expect(result.text).toBe('a.ts\n\n(2 more files not shown; use a narrower pattern or path.)');
  });

  it('says when nothing matches, and reports a bad folder', async () => {
    expect(await runTool(glob, { pattern: '**/*.rs' }, context)).toEqual({ text: 'No files match **/*.rs in .' });
    expect((await runTool(glob, { pattern: '*', path: 'missing' }, context)).error).toBe('File not found: missing');
  });

  it('uses path or "." as subject and path', () => {
    expect(glob.subject?.({ pattern: '*' })).toBe('.');
    expect(glob.paths?.({ pattern: '*', path: 'src' })).toEqual(['src']);
  });
});
