/**
 * A glob whose walk is stopped by its signal (a cancel, the tool timeout) found nothing or a
 * part of the files: answering "No files match" or a partial list would lie to the model.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGlobTool } from '../../src/tools/builtin/glob.js';
import { createToolContext, makeWorkspace, runTool, type TestToolContext, type TestWorkspace } from '../support/tool-context.js';

let root: TestWorkspace;
let context: TestToolContext;
const glob = createGlobTool();

beforeEach(async () => {
  root = await makeWorkspace();
  await root.file('ws/src/a.ts', 'export {};\n');
  context = createToolContext({ workspace: `${root.dir}/ws` });
});
afterEach(() => root.cleanup());

describe('glob cancelled', () => {
  it('before the walk: says the search was stopped, never "No files match"', async () => {
    context.controller.abort();
    await expect(runTool(glob, { pattern: '**/*.ts' }, context)).rejects.toThrow('the search was stopped');
  });

  it('not cancelled: the same search lists the file (the check above is about the cancel)', async () => {
    expect((await runTool(glob, { pattern: '**/*.ts' }, context)).text).toBe('src/a.ts');
  });
});
