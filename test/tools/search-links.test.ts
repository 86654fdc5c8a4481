import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createGlobTool } from '../../src/tools/builtin/glob.js';
import { createGrepTool } from '../../src/tools/builtin/grep.js';
import { createListTool } from '../../src/tools/builtin/list.js';
import { createToolContext, runTool, type TestToolContext } from '../support/tool-context.js';
import { workspaceBesideOutsidePerTest } from '../support/workspace-beside-outside.js';

// Item 9 of the hardening issue: a search whose pattern (or folder) starts with a symbolic
// link in the workspace must not read or list what lies behind it when that is outside.

const dirs = workspaceBesideOutsidePerTest();
let context: TestToolContext;
const grep = createGrepTool();
const glob = createGlobTool();
const list = createListTool();

beforeEach(async () => {
  await dirs.root.file('ws/sub/inner.txt', 'needle inside\n');
  await dirs.root.file('outside/leak.txt', 'needle OUTSIDE\n');
  await dirs.root.file('outside/deep/more.txt', 'needle OUTSIDE deep\n');
  await symlink(dirs.outside, join(dirs.ws, 'dl'));
  context = createToolContext({ workspace: dirs.ws });
});

describe('grep and glob patterns that start with a folder link', () => {
  it('grep include "dl/*" with dl -> outside finds nothing behind the link', async () => {
    for (const include of ['dl/*', 'dl/deep/*', 'dl/leak.txt', '{dl,sub}/*']) {
      const result = await runTool(grep, { pattern: 'needle', include }, context);
      expect(result.text, include).not.toContain('OUTSIDE');
    }
    expect((await runTool(grep, { pattern: 'needle', include: '{dl,sub}/*' }, context)).text).toBe('sub/inner.txt:1: needle inside');
  });

  it('glob "dl/*" with dl -> outside lists nothing behind the link', async () => {
    for (const pattern of ['dl/*', 'dl/deep/*', 'dl/leak.txt', 'dl/**', '*/deep/*']) {
      expect((await runTool(glob, { pattern }, context)).text, pattern).toBe(`No files match ${pattern} in .`);
    }
    expect((await runTool(glob, { pattern: '{dl,sub}/*' }, context)).text).toBe('sub/inner.txt');
  });

  it('"etc/passwd" with etc -> /etc reads nothing of /etc', async () => {
    await symlink('/etc', join(dirs.ws, 'etc'));
    const found = await runTool(grep, { pattern: 'root', include: 'etc/passwd' }, context);
    expect(found.text).toBe('No matches for /root/ in .');
    expect((await runTool(glob, { pattern: 'etc/passwd' }, context)).text).toBe('No files match etc/passwd in .');
    expect((await runTool(glob, { pattern: 'etc/host*' }, context)).text).toBe('No files match etc/host* in .');
  });

  it('a link to a folder inside the workspace is not followed either: results are real paths only', async () => {
    await symlink('sub', join(dirs.ws, 'alias'));
    expect((await runTool(glob, { pattern: 'alias/*' }, context)).text).toBe('No files match alias/* in .');
    expect((await runTool(grep, { pattern: 'needle', include: 'alias/*' }, context)).text).toBe('No matches for /needle/ in .');
  });
});

describe('list through links', () => {
  it('lists a link as an entry, never what it leads to', async () => {
    await mkdir(join(dirs.ws, 'empty'));
    await symlink(dirs.outside, join(dirs.ws, 'empty', 'out'));
    expect((await runTool(list, { path: 'empty' }, context)).text).toBe('out@/');
  });
});
