import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEditTool } from '../../src/tools/builtin/edit.js';
import { createToolContext, makeWorkspace, runTool, type TestWorkspace } from '../support/tool-context.js';

// edit holds the whole file in memory, searched and rewritten: one edit of a 150 MB file of
// one letter made 134 million pieces and aborted V8, taking `serve` down for everyone. So a
// file over 5 MiB, or one an edit would make larger than that, is refused, pointing to bash.

const MIB = 1024 * 1024;
let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

describe('edit on a large file', () => {
  it('refuses a file over 5 MiB without changing it, and points to bash', async () => {
    const path = await ws.file('big.txt', Buffer.alloc(5 * MIB + 1, 'a'));
    const result = await runTool(createEditTool(), { path: 'big.txt', old_string: 'a', new_string: 'b' }, createToolContext({ workspace: ws.dir }));
    expect(result.error).toMatch(/^big\.txt is 5242881 bytes, more than the 5242880 \(5 MiB\) edit changes; nothing was changed\./);
    expect(result.error).toMatch(/use bash \(sed -i/);
    expect((await readFile(path)).every((byte) => byte === 0x61)).toBe(true);
  });

  it('refuses an edit that would make the file larger than 5 MiB', async () => {
    const path = await ws.file('grow.txt', 'x'.repeat(1024));
    const result = await runTool(
      createEditTool(),
      { path: 'grow.txt', old_string: 'x', new_string: 'y'.repeat(6 * 1024), replace_all: true },
      createToolContext({ workspace: ws.dir }),
    );
    expect(result.error).toMatch(/^grow\.txt would be 6291456 bytes after this edit, more than the 5242880 \(5 MiB\)/);
    expect(await readFile(path, 'utf8')).toBe('x'.repeat(1024));
  });

  it('counts and replaces every match of a file just under the cap', async () => {
    await ws.file('many.txt', Buffer.alloc(4 * MIB, 'a'));
    const edit = createEditTool();
    const context = createToolContext({ workspace: ws.dir });
    const ambiguous = await runTool(edit, { path: 'many.txt', old_string: 'aa', new_string: 'b' }, context);
    expect(ambiguous.error).toMatch(/^old_string matches 2097152 times in many\.txt/);
    const all = await runTool(edit, { path: 'many.txt', old_string: 'aa', new_string: '$&', replace_all: true }, context);
    expect(all.text).toBe('Replaced 2097152 occurrences in many.txt (first at line 1)');
    expect((await stat(join(ws.dir, 'many.txt'))).size).toBe(2 * 2 * MIB);
    expect((await readFile(join(ws.dir, 'many.txt'), 'utf8')).slice(0, 6)).toBe('$&$&$&');
  });
});
