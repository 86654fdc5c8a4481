import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWriteTool } from '../../src/tools/builtin/write.js';
import { createToolContext, makeWorkspace, runTool, type TestWorkspace } from '../support/tool-context.js';

// Another process (a bash command the agent started, say) keeps swapping the file the
// model writes between a plain file and a symbolic link pointing outside the workspace.
// Whatever the timing, the write must never land outside.

// Swaps <ws>/race.txt as fast as it can, each swap an atomic rename, until killed.
const SWAPPER = `
const { renameSync, symlinkSync, writeFileSync, rmSync } = require('node:fs');
const [target, outside] = process.argv.slice(1);
const link = target + '.link', plain = target + '.plain';
process.stdout.write('ready\\n');
for (;;) {
  rmSync(link, { force: true });
  symlinkSync(outside, link);
  renameSync(link, target);
  writeFileSync(plain, 'inside\\n');
  renameSync(plain, target);
}`;

let ws: TestWorkspace;
let outsideDir: TestWorkspace;
let swapper: ChildProcess | undefined;

beforeEach(async () => {
  ws = await makeWorkspace();
  outsideDir = await makeWorkspace('rxharness-outside-');
});
afterEach(async () => {
  swapper?.kill('SIGKILL');
  swapper = undefined;
  await ws.cleanup();
  await outsideDir.cleanup();
});

describe('write against a swapped symbolic link', () => {
  it('never writes outside the workspace, whichever moment the link appears', async () => {
    const outside = await outsideDir.file('victim.txt', 'untouched\n');
    const target = join(ws.dir, 'race.txt');
    await writeFile(target, 'inside\n');
    swapper = spawn(process.execPath, ['-e', SWAPPER, target, outside], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => swapper!.stdout!.once('data', resolve));

    const write = createWriteTool();
    const outcomes = { written: 0, refused: 0 };
    // At least 400 attempts, and on until both sides of the race were reached (a loaded
    // machine can schedule the swapper so that one side is rare), for at most 20 s.
    const until = Date.now() + 20_000;
    for (let i = 0; i < 400 || ((outcomes.written === 0 || outcomes.refused === 0) && Date.now() < until); i++) {
      const result = await runTool(write, { path: 'race.txt', content: `attempt ${i}\n` }, createToolContext({ workspace: ws.dir }));
      outcomes[result.error === undefined ? 'written' : 'refused'] += 1;
      if ((await readFile(outside, 'utf8')) !== 'untouched\n') break;
    }

    expect(await readFile(outside, 'utf8')).toBe('untouched\n');
    // Both sides of the race were reached, so the property was really tested.
    expect(outcomes.written).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  }, 60_000);

  it('refuses a final path that is a link when it opens it, with a message the model can act on', async () => {
    await outsideDir.file('victim.txt', 'untouched\n');
    await symlink(join(outsideDir.dir, 'victim.txt'), join(ws.dir, 'link.txt'));
    const result = await runTool(createWriteTool(), { path: 'link.txt', content: 'x' }, createToolContext({ workspace: ws.dir }));
    expect(result.error).toMatch(/^link\.txt leads outside the workspace/);
    expect(await readFile(join(outsideDir.dir, 'victim.txt'), 'utf8')).toBe('untouched\n');
  });
});
