import { execFile } from 'node:child_process';
import { readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWriteTool } from '../../src/tools/builtin/write.js';
import { openWriteTarget } from '../../src/tools/write-target.js';
import { cancelledWhileJudged, makeWorkspace, runTool, type TestWorkspace } from '../support/tool-context.js';

// A `write` that creates a file and is then cancelled, or fails, before the content is in
// place: the file it created is removed, not left behind empty or cut (the folders it made
// may stay). Only the file it holds open is removed, never another one swapped in under the name.

const run = promisify(execFile);
const script = fileURLToPath(new URL('./write-size-limit-script.ts', import.meta.url));

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());


describe('write of a new file that does not finish', () => {
  it('removes the new file when the run is cancelled before the first byte', async () => {
    const result = await runTool(createWriteTool(), { path: 'new.txt', content: 'hello\n' }, cancelledWhileJudged(ws.dir));
    expect(result.error).toMatch(/aborted/);
    expect(await readdir(ws.dir)).toEqual([]);
  });

  it('removes the new file but keeps the folders it made', async () => {
    const result = await runTool(createWriteTool(), { path: 'notes/2026/new.txt', content: 'hello\n' }, cancelledWhileJudged(ws.dir));
    expect(result.error).toMatch(/aborted/);
    expect(await readdir(join(ws.dir, 'notes/2026'))).toEqual([]);
  });

  it('keeps an existing file it was cancelled on, content and all', async () => {
    const file = await ws.file('old.txt', 'precious\n');
    const result = await runTool(createWriteTool(), { path: 'old.txt', content: 'new\n' }, cancelledWhileJudged(ws.dir));
    expect(result.error).toMatch(/aborted/);
    expect(await readFile(file, 'utf8')).toBe('precious\n');
  });

  it('never removes a file swapped in under the name it created', async () => {
    const expected = join(ws.dir, 'new.txt');
    const target = await openWriteTarget(expected);
    expect(target?.created).toBe(true);
    try {
      // Its own file moved away, another put under its name: neither is its to remove now.
      await rename(expected, join(ws.dir, 'moved.txt'));
      await writeFile(expected, 'not yours\n');
      await target?.discard();
    } finally {
      await target?.close();
    }
    expect(await readFile(expected, 'utf8')).toBe('not yours\n');
    expect((await readdir(ws.dir)).sort()).toEqual(['moved.txt', 'new.txt']);
  });

  it('removes nothing when it opened a file that was already there', async () => {
    const expected = await ws.file('old.txt', 'precious\n');
    const target = await openWriteTarget(expected);
    expect(target?.created).toBe(false);
    try {
      await target?.discard();
    } finally {
      await target?.close();
    }
    expect(await readFile(expected, 'utf8')).toBe('precious\n');
  });

  it('removes the new file when a write fails half-way (a file-size limit)', async () => {
    // `ulimit -f 64` (64 KiB) for the tool's process: the first write stops short at the
    // limit, the next fails with EFBIG. Node ignores SIGXFSZ, so the failure is an error.
    const { stdout } = await run('bash', ['-c', 'ulimit -f 64 && exec "$0" "$@"', process.execPath, '--import', 'tsx', script, ws.dir, 'big/new.txt', '200000'], {
      timeout: 30_000,
    });
    const result = JSON.parse(stdout) as { error?: string };
    expect(result.error).toMatch(/^Cannot access big\/new\.txt: EFBIG/);
    expect(await readdir(join(ws.dir, 'big'))).toEqual([]);
    expect((await stat(join(ws.dir, 'big'))).isDirectory()).toBe(true);
  }, 40_000);
});
