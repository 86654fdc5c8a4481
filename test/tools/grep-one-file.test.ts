import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGrepTool } from '../../src/tools/builtin/grep.js';
import { runTool } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// In a folder search, large, binary and special files are skipped as documented. A file the
// model names on its own is different: "No matches" would tell it the file holds no such
// line when it was never read.

const fresh = toolContextPerTest();

describe('grep of one named file that it cannot search', () => {
  it('a file over maxFileBytes: an error with its size and what to use instead', async () => {
    await fresh.ws.file('big.log', 'needle\n'.repeat(10));
    const result = await runTool(createGrepTool({ maxFileBytes: 20 }), { pattern: 'needle', path: 'big.log' }, fresh.context);
    expect(result.error).toBe('big.log is 70 bytes, more than grep searches (20); use read with offset and limit, or narrow it down with bash');
  });

  it('a binary file: an error saying so', async () => {
    await fresh.ws.file('blob.bin', 'needle\u0000needle');
    const result = await runTool(createGrepTool(), { pattern: 'needle', path: 'blob.bin' }, fresh.context);
    expect(result.error).toBe('blob.bin looks like a binary file (or changed while it was read); grep searches text');
  });

  it('a named pipe: an error, and nothing waits on it', async () => {
    execFileSync('mkfifo', [join(fresh.ws.dir, 'pipe')]);
    const result = await runTool(createGrepTool(), { pattern: 'needle', path: 'pipe' }, fresh.context);
    expect(result.error).toBe('pipe is not a regular file or folder (a pipe, a socket or a device); grep searches files');
  });

  it('in a folder search the same files are still skipped silently', async () => {
    await fresh.ws.file('dir/big.log', 'needle\n'.repeat(10));
    await fresh.ws.file('dir/small.txt', 'needle');
    const result = await runTool(createGrepTool({ maxFileBytes: 20 }), { pattern: 'needle', path: 'dir' }, fresh.context);
    expect(result).toEqual({ text: 'dir/small.txt:1: needle' });
  });
});
