/**
 * A session file is read whole bounded by the read itself, not only by a size looked at
 * first: a file growing between the look and the read (or one whose size says nothing) is
 * refused with the same `SessionFileTooLargeError` once more than the limit has come in, and
 * never read further. A process's /proc/<pid>/environ is a regular file whose stat size is 0
 * whatever it holds: such a file made deterministic, with a small limit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readWhole } from '../../src/session/read-whole.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

const LIMIT = 4096;

let ws: TestWorkspace;
let child: ChildProcess | undefined;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  child?.kill();
  child = undefined;
  await ws.cleanup();
});

/** The bytes of `file` as readWhole reads them under `limit`. */
async function readUnder(file: string, limit: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    return await readWhole(handle, file, limit);
  } finally {
    await handle.close();
  }
}

/** The environ file of a child process holding `bytes` bytes or more of variables. */
async function environOf(bytes: number): Promise<string> {
  child = spawn('sleep', ['60'], { env: { A: 'x'.repeat(bytes) }, stdio: 'ignore' });
  await once(child, 'spawn');
  return `/proc/${child.pid}/environ`;
}

describe('readWhole', () => {
  it('refuses a file over the limit whose size, looked at first, says 0 bytes', async () => {
    const file = await environOf(3 * LIMIT);
    await expect(readUnder(file, LIMIT)).rejects.toMatchObject({ name: 'SessionFileTooLargeError', file, limit: LIMIT, bytes: LIMIT + 1 });
  });

  it('reads such a file whole while it is within the limit, as it holds more than its size says', async () => {
    const file = await environOf(100);
    expect((await readUnder(file, LIMIT)).toString('utf8')).toBe(`A=${'x'.repeat(100)}\u0000`);
  });

  it('reads a file of exactly the limit, and refuses one a byte over it by its size', async () => {
    const exact = join(ws.dir, 'exact.jsonl');
    const over = join(ws.dir, 'over.jsonl');
    await writeFile(exact, 'y'.repeat(LIMIT));
    await writeFile(over, 'y'.repeat(LIMIT + 1));
    expect((await readUnder(exact, LIMIT)).equals(Buffer.from('y'.repeat(LIMIT)))).toBe(true);
    await expect(readUnder(over, LIMIT)).rejects.toMatchObject({ name: 'SessionFileTooLargeError', file: over, bytes: LIMIT + 1, limit: LIMIT });
  });

  it('reads a file larger than the first buffer whole (grown as it goes)', async () => {
    const file = join(ws.dir, 'big.jsonl');
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');
    await writeFile(file, text);
    expect((await readUnder(file, 1 << 20)).toString('utf8')).toBe(text);
  });
});
