import { link, mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEditTool } from '../../src/tools/builtin/edit.js';
import { createReadTool } from '../../src/tools/builtin/read.js';
import { createWriteTool } from '../../src/tools/builtin/write.js';
import { createToolContext, makeWorkspace, runTool, type TestWorkspace } from '../support/tool-context.js';

// read, write and edit echo the path the model gave in their answers and errors. A path
// holding a line break or a bidi override (the model's own, or a planted file name it copied)
// was echoed raw: `File not found: no` and a second line `such`, or a name shown backwards.
// Now such a path is JSON-quoted as glob, grep and list print it; a plain path as it was.

/** Each hostile path, with how the answer must show it. */
const HOSTILE: readonly (readonly [string, string])[] = [
  ['nl\nx.txt', '"nl\\nx.txt"'],
  ['cr\rx.txt', '"cr\\rx.txt"'],
  ['ls\u2028x.txt', '"ls\\u2028x.txt"'],
  ['rlo\u202Etxt.exe', '"rlo\\u202etxt.exe"'],
];

/** What must never reach the model raw from a path. */
const RAW = /[\n\r\u2028\u202E]/;

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const context = () => createToolContext({ workspace: ws.dir });
const read = createReadTool();
const write = createWriteTool();
const edit = createEditTool();

describe.each(HOSTILE)('a path with a control or bidi character (%j) is quoted', (path, shown) => {
  it('read: a missing file, an empty file, a folder', async () => {
    const missing = await runTool(read, { path }, context());
    expect(missing.error).toBe(`File not found: ${shown}`);
    await ws.file(path, '');
    expect(await runTool(read, { path }, context())).toEqual({ text: `(${shown} is empty)` });
    await mkdir(join(ws.dir, `${path}.d`));
    const folder = await runTool(read, { path: `${path}.d` }, context());
    expect(folder.error).toMatch(/^".*\.d" is a folder, not a file/);
    for (const result of [missing, folder]) expect(result.text).not.toMatch(RAW);
  });

  it('write: creates the file under its real name, and refuses a folder and a hard link', async () => {
    const created = await runTool(write, { path, content: 'a\n' }, context());
    expect(created).toEqual({ text: `Created ${shown} (2 bytes, 1 line)` });
    expect(await readFile(join(ws.dir, path), 'utf8')).toBe('a\n');
    await mkdir(join(ws.dir, `${path}.d`));
    const folder = await runTool(write, { path: `${path}.d`, content: 'x' }, context());
    expect(folder.error).toMatch(/^".*\.d" is a folder; give a file path to write$/);
    await link(join(ws.dir, path), join(ws.dir, 'other'));
    const linked = await runTool(write, { path, content: 'x' }, context());
    expect(linked.error).toMatch(new RegExp(`^${escaped(shown)} has 2 hard links`));
    for (const result of [folder, linked]) expect(result.text).not.toMatch(RAW);
  });

  it('edit: a missing file, text not found, a replacement', async () => {
    const missing = await runTool(edit, { path, old_string: 'a', new_string: 'b' }, context());
    expect(missing.error).toBe(`File not found: ${shown}. To create a file, use write.`);
    await ws.file(path, 'one\n');
    const absent = await runTool(edit, { path, old_string: 'two', new_string: 'b' }, context());
    expect(absent.error).toMatch(new RegExp(`^old_string was not found in ${escaped(shown)}\\. `));
    const replaced = await runTool(edit, { path, old_string: 'one', new_string: 'two' }, context());
    expect(replaced).toEqual({ text: `Replaced 1 occurrence in ${shown} (line 1)` });
    expect(await readFile(join(ws.dir, path), 'utf8')).toBe('two\n');
    for (const result of [missing, absent]) expect(result.text).not.toMatch(RAW);
  });

  it('read, write and edit: a symbolic link loop', async () => {
    await symlink(path, join(ws.dir, path));
    const results = [
      await runTool(read, { path }, context()),
      await runTool(write, { path, content: 'x' }, context()),
      await runTool(edit, { path, old_string: 'a', new_string: 'b' }, context()),
    ];
    for (const result of results) {
      expect(result.error).toMatch(new RegExp(`^${escaped(shown)} is a symbolic link loop`));
      expect(result.text).not.toMatch(RAW);
    }
  });

  it('read: a path that now leads elsewhere than where it was judged names both quoted', async () => {
    await ws.file('real\u202Etxt', 'secret\n');
    await symlink('real\u202Etxt', join(ws.dir, path));
    const moved = await runTool(read, { path }, { ...context(), judgedPaths: [path], judgePath: () => 'ask' });
    expect(moved.error).toBe(
      `${shown} now leads to "real\\u202etxt" through a symbolic link, where read needs approval; nothing was read. ` +
        'Give "real\\u202etxt" itself as the path to have it judged.',
    );
  });
});

describe('a plain path reads exactly as before', () => {
  it('read, write and edit answer byte for byte as they did', async () => {
    const path = 'dir/my file.txt';
    expect((await runTool(read, { path }, context())).text).toBe('ERROR: File not found: dir/my file.txt');
    expect((await runTool(edit, { path, old_string: 'a', new_string: 'b' }, context())).text).toBe(
      'ERROR: File not found: dir/my file.txt. To create a file, use write.',
    );
    expect((await runTool(write, { path, content: '' }, context())).text).toBe('Created dir/my file.txt (0 bytes, 0 lines)');
    expect((await runTool(read, { path }, context())).text).toBe('(dir/my file.txt is empty)');
    await runTool(write, { path, content: 'one\n' }, context());
    expect((await runTool(edit, { path, old_string: 'one', new_string: 'two' }, context())).text).toBe(
      'Replaced 1 occurrence in dir/my file.txt (line 1)',
    );
    expect((await runTool(write, { path: 'dir', content: 'x' }, context())).text).toBe('ERROR: dir is a folder; give a file path to write');
  });
});

/** `text` as a literal part of a regular expression. */
function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
