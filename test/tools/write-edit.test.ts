import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEditTool } from '../../src/tools/builtin/edit.js';
import { createWriteTool } from '../../src/tools/builtin/write.js';
import { runTool } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const fresh = toolContextPerTest();

describe('write tool', () => {
  const write = createWriteTool();

  it('creates the file and its parent folders, and counts bytes and lines', async () => {
    const result = await runTool(write, { path: 'a/b/c.txt', content: 'héllo\nworld\n' }, fresh.context);
    expect(result).toEqual({ text: 'Created a/b/c.txt (13 bytes, 2 lines)' });
    expect(await readFile(join(fresh.ws.dir, 'a/b/c.txt'), 'utf8')).toBe('héllo\nworld\n');
  });

  it('overwrites an existing file and says so', async () => {
    await fresh.ws.file('a.txt', 'old content');
    const result = await runTool(write, { path: 'a.txt', content: 'x' }, fresh.context);
    expect(result.text).toBe('Overwrote a.txt (1 byte, 1 line)');
    expect(await readFile(join(fresh.ws.dir, 'a.txt'), 'utf8')).toBe('x');
  });

  it('refuses to write over a folder', async () => {
    await mkdir(join(fresh.ws.dir, 'dir'));
    const result = await runTool(write, { path: 'dir', content: 'x' }, fresh.context);
    expect(result.error).toMatch(/dir is a folder/);
  });

  it('reports a path that cannot be created', async () => {
    await fresh.ws.file('file', 'x');
    const result = await runTool(write, { path: 'file/inner.txt', content: 'x' }, fresh.context);
    expect(result.error).toMatch(/file\/inner\.txt/);
  });
});

describe('edit tool', () => {
  const edit = createEditTool();

  it('replaces a unique match and names the line', async () => {
    await fresh.ws.file('a.ts', 'let a = 1;\nlet b = 2;\n');
    const result = await runTool(edit, { path: 'a.ts', old_string: 'let b', new_string: 'const b' }, fresh.context);
    expect(result).toEqual({ text: 'Replaced 1 occurrence in a.ts (line 2)' });
    expect(await readFile(join(fresh.ws.dir, 'a.ts'), 'utf8')).toBe('let a = 1;\nconst b = 2;\n');
  });

  it('refuses several matches, says how many and what to do', async () => {
    await fresh.ws.file('a.ts', 'x;\nx;\nx;\n');
    const result = await runTool(edit, { path: 'a.ts', old_string: 'x;', new_string: 'y;' }, fresh.context);
    expect(result.error).toMatch(/matches 3 times in a\.ts/);
    expect(result.error).toMatch(/replace_all: true/);
    expect(await readFile(join(fresh.ws.dir, 'a.ts'), 'utf8')).toBe('x;\nx;\nx;\n');
  });

  it('replaces every match with replace_all', async () => {
    await fresh.ws.file('a.ts', 'x;\nx;\nx;\n');
    const result = await runTool(edit, { path: 'a.ts', old_string: 'x', new_string: 'y', replace_all: true }, fresh.context);
    expect(result.text).toBe('Replaced 3 occurrences in a.ts (first at line 1)');
    expect(await readFile(join(fresh.ws.dir, 'a.ts'), 'utf8')).toBe('y;\ny;\ny;\n');
  });

  it('keeps $ patterns in new_string literal', async () => {
    await fresh.ws.file('a.ts', 'price\n');
    await runTool(edit, { path: 'a.ts', old_string: 'price', new_string: "$& $' $1" }, fresh.context);
    expect(await readFile(join(fresh.ws.dir, 'a.ts'), 'utf8')).toBe("$& $' $1\n");
  });

  it('says when old_string is not found', async () => {
    await fresh.ws.file('a.ts', 'hello\n');
    const result = await runTool(edit, { path: 'a.ts', old_string: 'Hello', new_string: 'bye' }, fresh.context);
    expect(result.error).toMatch(/old_string was not found in a\.ts.*read the file/);
  });

  it('refuses old_string equal to new_string', async () => {
    await fresh.ws.file('a.ts', 'hello\n');
    const result = await runTool(edit, { path: 'a.ts', old_string: 'hello', new_string: 'hello' }, fresh.context);
    expect(result.error).toMatch(/the same/);
  });

  it('names a missing file and points to write', async () => {
    const result = await runTool(edit, { path: 'missing.ts', old_string: 'a', new_string: 'b' }, fresh.context);
    expect(result.error).toBe('File not found: missing.ts. To create a file, use write.');
  });

  it('refuses binary files', async () => {
    await fresh.ws.file('bin.dat', Buffer.from([0x61, 0x00, 0x62]));
    const result = await runTool(edit, { path: 'bin.dat', old_string: 'a', new_string: 'c' }, fresh.context);
    expect(result.error).toMatch(/binary/);
  });

  it('declares its path', () => {
    const args = { path: 'x.ts', old_string: 'a', new_string: 'b' };
    expect(edit.paths?.(args)).toEqual(['x.ts']);
    expect(edit.subject?.(args)).toBe('x.ts');
  });
});
