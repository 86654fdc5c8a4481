import { link, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEditTool } from '../../src/tools/builtin/edit.js';
import { createReadTool } from '../../src/tools/builtin/read.js';
import { createWriteTool } from '../../src/tools/builtin/write.js';
import { createToolContext, makeWorkspace, runTool, type TestWorkspace } from '../support/tool-context.js';

// A hard link is a second name of the same file: one inside the workspace may name a file
// outside it (pnpm's store), and the check of where the path leads cannot tell.

let ws: TestWorkspace;
let out: TestWorkspace;
let outside: string;
beforeEach(async () => {
  ws = await makeWorkspace();
  out = await makeWorkspace('rxh-out-');
  outside = await out.file('victim.txt', 'SECRET needle\n');
  await link(outside, join(ws.dir, 'linked.txt'));
});
afterEach(async () => {
  await ws.cleanup();
  await out.cleanup();
});

describe('a file with other hard links', () => {
  it('is not edited, and the message says how to make it a file of its own', async () => {
    const result = await runTool(createEditTool(), { path: 'linked.txt', old_string: 'needle', new_string: 'PWNED' }, createToolContext({ workspace: ws.dir }));
    expect(result.error).toMatch(/linked\.txt has 2 hard links.*nothing was changed.*cp linked\.txt/);
    expect(await readFile(outside, 'utf8')).toBe('SECRET needle\n');
  });

  it('is not overwritten', async () => {
    const result = await runTool(createWriteTool(), { path: 'linked.txt', content: 'OVERWRITTEN\n' }, createToolContext({ workspace: ws.dir }));
    expect(result.error).toMatch(/linked\.txt has 2 hard links/);
    expect(await readFile(outside, 'utf8')).toBe('SECRET needle\n');
  });

  it('can still be read', async () => {
    const result = await runTool(createReadTool(), { path: 'linked.txt' }, createToolContext({ workspace: ws.dir }));
    expect(result.error).toBeUndefined();
    expect(result.text).toContain('SECRET needle');
  });
});
