import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createReadTool } from '../../src/tools/builtin/read.js';
import { runTool } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const lines = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('read tool', () => {
  const fresh = toolContextPerTest();
  const read = createReadTool();

  it('numbers lines like cat -n', async () => {
    await fresh.ws.file('a.txt', 'alpha\nbeta\n');
    const result = await runTool(read, { path: 'a.txt' }, fresh.context);
    expect(result).toEqual({ text: '     1\talpha\n     2\tbeta' });
  });

  it('never cuts a long line between the two halves of a character, and counts what went', async () => {
    await fresh.ws.file('a.txt', `${'a'.repeat(9)}😀${'b'.repeat(5)}\n`);
    const result = await runTool(createReadTool({ maxLineLength: 10 }), { path: 'a.txt' }, fresh.context);
    expect(result.text).toBe('     1\taaaaaaaaa… [line cut: 7 more characters]');
  });

  it('reads from a 1-based offset up to limit and says how to read on', async () => {
    await fresh.ws.file('a.txt', lines(10));
    const result = await runTool(read, { path: 'a.txt', offset: 3, limit: 2 }, fresh.context);
    expect(result.error).toBeUndefined();
    expect(result.text).toContain('     3\tline 3\n     4\tline 4');
    expect(result.text).not.toContain('line 5');
    expect(result.text).toContain('call read with offset 5');
  });

  it('adds no note when the page reaches the end of the file', async () => {
    await fresh.ws.file('a.txt', lines(3));
    const result = await runTool(read, { path: 'a.txt', offset: 2, limit: 2 }, fresh.context);
    expect(result.text).toBe('     2\tline 2\n     3\tline 3');
  });

  it('limits to 2000 lines by default', async () => {
    await fresh.ws.file('big.txt', lines(2500));
    const result = await runTool(read, { path: 'big.txt' }, fresh.context);
    expect(result.text).toContain('  2000\tline 2000');
    expect(result.text).not.toContain('line 2001');
    expect(result.text).toContain('offset 2001');
  });

  it('cuts long lines with a note', async () => {
    await fresh.ws.file('long.txt', `${'x'.repeat(2500)}\nshort\n`);
    const result = await runTool(read, { path: 'long.txt' }, fresh.context);
    expect(result.text).toContain(`${'x'.repeat(2000)}… [line cut: 500 more characters]`);
    expect(result.text).toContain('     2\tshort');
  });

  it('caps the total size and names the next offset', async () => {
    const capped = createReadTool({ maxOutputChars: 100 });
    await fresh.ws.file('a.txt', lines(50));
    const result = await runTool(capped, { path: 'a.txt' }, fresh.context);
    expect(result.text.length).toBeLessThan(250);
    const lastShown = Number(/(\d+)\tline \d+\n\n\(Output capped/.exec(result.text)?.[1]);
    expect(lastShown).toBeGreaterThan(1);
    expect(result.text).toContain(`call read with offset ${lastShown + 1}`);
  });

  it('refuses binary files', async () => {
    await fresh.ws.file('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    const result = await runTool(read, { path: 'logo.png' }, fresh.context);
    expect(result.error).toMatch(/logo\.png looks like a binary file/);
  });

  it('names the missing path', async () => {
    const result = await runTool(read, { path: 'nope/missing.txt' }, fresh.context);
    expect(result.error).toBe('File not found: nope/missing.txt');
    expect(result.text).toBe('ERROR: File not found: nope/missing.txt');
  });

  it('refuses a folder and points to list', async () => {
    await mkdir(join(fresh.ws.dir, 'src'));
    const result = await runTool(read, { path: 'src' }, fresh.context);
    expect(result.error).toMatch(/src is a folder.*list/);
  });

  it('refuses what is not a regular file instead of blocking on it', async () => {
    execFileSync('mkfifo', [join(fresh.ws.dir, 'pipe')]);
    const result = await runTool(read, { path: 'pipe' }, fresh.context);
    expect(result.error).toBe('pipe is not a regular file');
  });

  it('says when the offset is past the end', async () => {
    await fresh.ws.file('a.txt', lines(3));
    const result = await runTool(read, { path: 'a.txt', offset: 9 }, fresh.context);
    expect(result.error).toBe('offset 9 is past the end of a.txt (3 lines)');
  });

  it('says when a file is empty', async () => {
    await fresh.ws.file('empty.txt', '');
    expect(await runTool(read, { path: 'empty.txt' }, fresh.context)).toEqual({ text: '(empty.txt is empty)' });
  });

  it('declares the path it touches as subject and path', () => {
    expect(read.paths?.({ path: 'a/b.ts' })).toEqual(['a/b.ts']);
    expect(read.subject?.({ path: 'a/b.ts' })).toBe('a/b.ts');
  });
});
