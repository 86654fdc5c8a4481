import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWriteTool } from '../../src/tools/builtin/write.js';
import { fileSwapper, swapRacePerTest } from '../support/swap-race.js';
import { createToolContext, runTool } from '../support/tool-context.js';

// Another process (a bash command the agent started, say) keeps swapping the file the
// model writes between a plain file and a symbolic link pointing outside the workspace.
// Whatever the timing, the write must never land outside.

// Swaps <ws>/race.txt as fast as it can, each swap an atomic rename, until killed.
const SWAPPER = fileSwapper('inside\n');

const swap = swapRacePerTest();

describe('write against a swapped symbolic link', () => {
  it('never writes outside the workspace, whichever moment the link appears', async () => {
    const outside = await swap.outside.file('victim.txt', 'untouched\n');
    const target = join(swap.ws.dir, 'race.txt');
    await writeFile(target, 'inside\n');
    await swap.start(SWAPPER, target, outside);

    const write = createWriteTool();
    const outcomes = { written: 0, refused: 0 };
    // At least 400 attempts, and on until both sides of the race were reached (a loaded
    // machine can schedule the swapper so that one side is rare), for at most 20 s.
    const until = Date.now() + 20_000;
    for (let i = 0; i < 400 || ((outcomes.written === 0 || outcomes.refused === 0) && Date.now() < until); i++) {
      const result = await runTool(write, { path: 'race.txt', content: `attempt ${i}\n` }, createToolContext({ workspace: swap.ws.dir }));
      outcomes[result.error === undefined ? 'written' : 'refused'] += 1;
      if ((await readFile(outside, 'utf8')) !== 'untouched\n') break;
    }

    expect(await readFile(outside, 'utf8')).toBe('untouched\n');
    // Both sides of the race were reached, so the property was really tested.
    expect(outcomes.written).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  }, 60_000);

  it('refuses a final path that is a link when it opens it, with a message the model can act on', async () => {
    await swap.outside.file('victim.txt', 'untouched\n');
    await symlink(join(swap.outside.dir, 'victim.txt'), join(swap.ws.dir, 'link.txt'));
    const result = await runTool(createWriteTool(), { path: 'link.txt', content: 'x' }, createToolContext({ workspace: swap.ws.dir }));
    expect(result.error).toMatch(/^Permission denied: ".*victim\.txt" is outside the workspace .*: "link\.txt" leads there through the symbolic link "link\.txt" -> "/);
    expect(await readFile(join(swap.outside.dir, 'victim.txt'), 'utf8')).toBe('untouched\n');
  });
});
