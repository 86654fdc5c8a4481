import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, beforeEach } from 'vitest';
import { makeWorkspace, type TestWorkspace } from './tool-context.js';

/**
 * A script for {@link SwapRace.start}: swaps its target between a plain file holding `content`
 * and a link to its outside path, each step an atomic rename, as fast as it can.
 */
export function fileSwapper(content: string): string {
  return `
const { renameSync, symlinkSync, writeFileSync, rmSync } = require('node:fs');
const [target, outside] = process.argv.slice(1);
const link = target + '.link', plain = target + '.plain';
process.stdout.write('ready\\n');
for (;;) {
  rmSync(link, { force: true });
  symlinkSync(outside, link);
  renameSync(link, target);
  writeFileSync(plain, ${JSON.stringify(content)});
  renameSync(plain, target);
}`;
}

/** What a race test against another process swapping paths for links gets, fresh for each test. */
export interface SwapRace {
  /** This test's workspace. */
  readonly ws: TestWorkspace;
  /** This test's folder outside the workspace, where the links point. */
  readonly outside: TestWorkspace;
  /**
   * Starts `script` (run by `node -e` with `target` and `outsidePath` as its arguments),
   * which swaps `target` for a link to `outsidePath` and back until killed; resolves once it
   * wrote its first line. It is killed after the test.
   */
  start(script: string, target: string, outsidePath: string): Promise<void>;
}

/**
 * Registers, for each test of the file, a workspace, a folder outside it and the clean-up of
 * both and of the swapping process: the set-up of every race test of the workspace tools.
 */
export function swapRacePerTest(): SwapRace {
  let ws: TestWorkspace | undefined;
  let outside: TestWorkspace | undefined;
  let swapper: ChildProcess | undefined;
  beforeEach(async () => {
    ws = await makeWorkspace();
    outside = await makeWorkspace('rxharness-outside-');
  });
  afterEach(async () => {
    swapper?.kill('SIGKILL');
    swapper = undefined;
    await ws?.cleanup();
    await outside?.cleanup();
  });
  return {
    get ws() {
      return ws!;
    },
    get outside() {
      return outside!;
    },
    async start(script, target, outsidePath) {
      swapper = spawn(process.execPath, ['-e', script, target, outsidePath], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise((resolve) => swapper!.stdout!.once('data', resolve));
    },
  };
}
