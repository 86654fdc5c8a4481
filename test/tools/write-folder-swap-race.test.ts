import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWriteTool } from '../../src/tools/builtin/write.js';
import { swapRacePerTest } from '../support/swap-race.js';
import { createToolContext, runTool } from '../support/tool-context.js';

// Another process keeps swapping a folder on the way of the file the model writes between
// a real folder and a symbolic link out of the workspace. Whatever the timing, nothing may
// be created outside: not the file, not an empty one, not a folder.

// Swaps the folder <target> between a fresh real folder and a link to <outside>; never gives up.
const FOLDER_SWAPPER = `
const { renameSync, symlinkSync, rmSync, mkdirSync } = require('node:fs');
const [target, outside] = process.argv.slice(1);
const link = target + '.link';
const attempt = (f) => { try { f(); } catch {} };
process.stdout.write('ready\\n');
for (let i = 0; ; i++) {
  const real = target + '.real' + (i % 2);
  attempt(() => rmSync(real, { recursive: true, force: true }));
  attempt(() => renameSync(target, real));
  attempt(() => rmSync(link, { force: true }));
  attempt(() => symlinkSync(outside, link));
  attempt(() => renameSync(link, target));
  attempt(() => rmSync(target, { force: true }));
  attempt(() => mkdirSync(target));
}`;

const swap = swapRacePerTest();

describe('write against a folder swapped for a symbolic link', () => {
  it('never creates anything outside the workspace, whichever moment the link appears', async () => {
    await swap.ws.file('sub/keep.txt', '');
    await swap.start(FOLDER_SWAPPER, join(swap.ws.dir, 'sub'), swap.outside.dir);

    const write = createWriteTool();
    const outcomes = { written: 0, refused: 0 };
    let landed: string[] = [];
    // At least 600 attempts (the tool before the fix wrote outside within ~100), and on until
    // both sides of the race were reached, for at most 15 s. A deeper path has write make
    // folders too, which must not be made through the link either.
    const until = Date.now() + 15_000;
    for (let i = 0; i < 600 || ((outcomes.written === 0 || outcomes.refused === 0) && Date.now() < until); i++) {
      const path = i % 2 === 0 ? 'sub/leak.txt' : 'sub/deeper/leak.txt';
      const result = await runTool(write, { path, content: `attempt ${i}\n` }, createToolContext({ workspace: swap.ws.dir }));
      outcomes[result.error === undefined ? 'written' : 'refused'] += 1;
      landed = await readdir(swap.outside.dir);
      if (landed.length > 0) break;
    }

    expect(landed).toEqual([]);
    expect(outcomes.written).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  }, 60_000);
});
