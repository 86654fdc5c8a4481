/**
 * A session's `<id>.summary.json` is read through one open handle, at most one byte past its
 * 64 KB cap: the refusal is decided by the bytes read, not by a size looked at first, which a
 * summary growing between the look and the read (or a file whose size says nothing) would pass.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { readSummary } from '../../src/session/session-summary-file.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

const CAP = 64 * 1024;

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

/** Catches the `RXHARNESS_BAD_SESSION_SUMMARY` process warnings emitted while `run` runs. */
async function warningsOf<T>(run: () => Promise<T>): Promise<{ result: T; warnings: string[] }> {
  const warnings: string[] = [];
  const listen = (warning: Error & { code?: string }) => {
    if (warning.code === 'RXHARNESS_BAD_SESSION_SUMMARY') warnings.push(warning.message);
  };
  process.on('warning', listen);
  try {
    const result = await run();
    await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    return { result, warnings };
  } finally {
    process.off('warning', listen);
  }
}

describe('reading a session summary', () => {
  it('leaves out a session whose summary is over the cap (a sparse 8 GiB file), with a warning, and lists the others', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: 'k' });
    await store.append('kept', [{ role: 'user', content: 'hello' }]);
    const dir = join(ws.dir, '.rxharness', 'sessions');
    await writeFile(join(dir, 'big.jsonl'), '');
    const handle = await open(join(dir, 'big.summary.json'), 'w');
    await handle.truncate(8 * 1024 ** 3);
    await handle.close();
    const { result, warnings } = await warningsOf(() => store.list());
    expect(result.map((s) => s.sessionId)).toEqual(['kept']);
    expect(warnings).toEqual([expect.stringContaining(`big.summary.json is not listed: it is larger than ${CAP} bytes`)]);
  });

  it('refuses a file over the cap whose size, looked at first, says 0 bytes: the read itself is bounded', async () => {
    // A process's /proc/<pid>/environ is a regular file whose stat size is 0 whatever it holds:
    // a summary that grows after its size was looked at, made deterministic.
    // (Several variables: one may not exceed 128 KiB.)
    const env = Object.fromEntries(['A', 'B', 'C'].map((name) => [name, 'x'.repeat(CAP / 2)]));
    const child = spawn('sleep', ['60'], { env, stdio: 'ignore' });
    try {
      await once(child, 'spawn');
      const root = { path: `/proc/${child.pid}`, label: 'the test folder' };
      expect(await readSummary(root, `/proc/${child.pid}/environ`, 'environ')).toBe(`it is larger than ${CAP} bytes`);
    } finally {
      child.kill();
    }
  });

  it('still reads a summary of exactly the cap', async () => {
    const dir = join(ws.dir, '.rxharness', 'sessions');
    await mkdir(dir, { recursive: true });
    const summary = JSON.stringify({ sessionId: 'edge', title: 'hi', lastActivityAt: 1 });
    await writeFile(join(dir, 'edge.summary.json'), summary.padEnd(CAP, ' '));
    expect(await readSummary({ path: ws.dir, label: 'the workspace' }, join(dir, 'edge.summary.json'), 'edge')).toEqual({ sessionId: 'edge', title: 'hi', lastActivityAt: 1 });
  });
});
