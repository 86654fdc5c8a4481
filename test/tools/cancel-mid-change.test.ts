import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEditTool } from '../../src/tools/builtin/edit.js';
import { createReadTool } from '../../src/tools/builtin/read.js';
import { createWriteTool } from '../../src/tools/builtin/write.js';
import { cancelledWhileJudged, makeWorkspace, runTool, type TestWorkspace } from '../support/tool-context.js';

// A run cancelled while a workspace tool is under way: the cancel is made to land at a fixed
// point (while the tool judges the path again, just before it opens and reads the file), so
// nothing here depends on timing.

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});


/** Errors that reached the process with no one to catch them while `work` ran, and a few turns after. */
async function uncaughtDuring(work: () => Promise<unknown>): Promise<unknown[]> {
  const caught: unknown[] = [];
  const listener = (error: unknown): void => {
    caught.push(error);
  };
  process.on('uncaughtException', listener);
  try {
    await work();
    // A stream emits its error on a later turn of the loop: let those turns pass.
    for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('uncaughtException', listener);
  }
  return caught;
}

describe('a cancel while a workspace tool works', () => {
  it('read fails with the abort and leaves no error behind to crash the process', async () => {
    await ws.file('a.txt', 'one\ntwo\n');
    let result: { error?: string } = {};
    const uncaught = await uncaughtDuring(async () => {
      result = await runTool(createReadTool(), { path: 'a.txt' }, cancelledWhileJudged(ws.dir));
    });
    expect(uncaught).toEqual([]);
    expect(result.error).toMatch(/aborted/);
  });

  it('edit leaves the old content when the cancel comes before it writes', async () => {
    const original = 'keep this line\nneedle\n'.repeat(1000);
    const file = await ws.file('a.txt', original);
    const result = await runTool(createEditTool(), { path: 'a.txt', old_string: 'needle', new_string: 'pin', replace_all: true }, cancelledWhileJudged(ws.dir));
    expect(result.error).toMatch(/aborted/);
    expect(await readFile(file, 'utf8')).toBe(original);
  });

  it('write leaves the old content when the cancel comes before it writes', async () => {
    const file = await ws.file('a.txt', 'precious\n');
    const result = await runTool(createWriteTool(), { path: 'a.txt', content: 'new\n' }, cancelledWhileJudged(ws.dir));
    expect(result.error).toMatch(/aborted/);
    expect(await readFile(file, 'utf8')).toBe('precious\n');
  });
});
