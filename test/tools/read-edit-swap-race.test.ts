import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEditTool } from '../../src/tools/builtin/edit.js';
import { createReadTool } from '../../src/tools/builtin/read.js';
import type { Tool } from '../../src/tools/tool.js';
import { fileSwapper, swapRacePerTest } from '../support/swap-race.js';
import { createToolContext, runTool } from '../support/tool-context.js';

// Another process (a command the agent started, say) keeps swapping what the model reads or
// edits for a symbolic link out of the workspace, between the tool's check and its use.
// Whatever the timing, read must never show the outside file and edit never change it.

// Swaps <target> between a plain file and a link to <outside>, each step an atomic rename.
const FILE_SWAPPER = fileSwapper('needle inside\n');
// Swaps the folder <target> between a real folder and a link to the folder <outside>.
const FOLDER_SWAPPER = `
const { renameSync, symlinkSync, rmSync } = require('node:fs');
const [target, outside] = process.argv.slice(1);
const link = target + '.link', real = target + '.real';
renameSync(target, real);
process.stdout.write('ready\\n');
for (;;) {
  rmSync(link, { force: true });
  symlinkSync(outside, link);
  renameSync(link, target);
  rmSync(target);
  renameSync(real, target);
  renameSync(target, real);
}`;

const SECRET = 'needle OUTSIDE secret\n';
const swap = swapRacePerTest();


/**
 * Calls the tool at least 400 times, and on until both sides of the race were reached (a
 * loaded machine can make one side rare), for at most 15 s, or until `escaped` says the tool
 * reached outside. (The tools before the fix escaped within ~150 calls.)
 */
async function race(tool: Tool, args: Record<string, unknown>, escaped: (text: string) => Promise<boolean>) {
  const outcomes = { done: 0, refused: 0, escaped: false };
  const until = Date.now() + 15_000;
  for (let i = 0; i < 400 || ((outcomes.done === 0 || outcomes.refused === 0) && Date.now() < until); i++) {
    const result = await runTool(tool, args, createToolContext({ workspace: swap.ws.dir }));
    outcomes[result.error === undefined ? 'done' : 'refused'] += 1;
    if (await escaped(result.text)) return { ...outcomes, escaped: true };
  }
  return outcomes;
}

describe('read and edit against a swapped symbolic link', () => {
  it('edit never changes the file outside when the file itself becomes a link', async () => {
    const outside = await swap.outside.file('victim.txt', SECRET);
    await writeFile(join(swap.ws.dir, 'race.txt'), 'needle inside\n');
    await swap.start(FILE_SWAPPER, join(swap.ws.dir, 'race.txt'), outside);
    const outcomes = await race(createEditTool(), { path: 'race.txt', old_string: 'needle', new_string: 'PWNED' }, async () => (await readFile(outside, 'utf8')) !== SECRET);
    expect(outcomes.escaped).toBe(false);
    expect(await readFile(outside, 'utf8')).toBe(SECRET);
    expect(outcomes.done).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  }, 60_000);

  it('read never shows the file outside when the file itself becomes a link', async () => {
    const outside = await swap.outside.file('victim.txt', SECRET);
    await writeFile(join(swap.ws.dir, 'race.txt'), 'needle inside\n');
    await swap.start(FILE_SWAPPER, join(swap.ws.dir, 'race.txt'), outside);
    const outcomes = await race(createReadTool(), { path: 'race.txt' }, async (text) => text.includes('OUTSIDE'));
    expect(outcomes.escaped).toBe(false);
    expect(outcomes.done).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  }, 60_000);

  it('read never shows a file outside when a folder on the way becomes a link', async () => {
    await swap.outside.file('d/leak.txt', SECRET);
    await swap.ws.file('sub/leak.txt', 'needle inside\n');
    await swap.start(FOLDER_SWAPPER, join(swap.ws.dir, 'sub'), join(swap.outside.dir, 'd'));
    const outcomes = await race(createReadTool(), { path: 'sub/leak.txt' }, async (text) => text.includes('OUTSIDE'));
    expect(outcomes.escaped).toBe(false);
    expect(outcomes.done).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  }, 60_000);
});
