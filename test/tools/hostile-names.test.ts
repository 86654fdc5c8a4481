import fc from 'fast-check';
import { lstat, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGlobTool } from '../../src/tools/builtin/glob.js';
import { createGrepTool } from '../../src/tools/builtin/grep.js';
import { createListTool } from '../../src/tools/builtin/list.js';
import { createToolContext, makeWorkspace, runTool, type TestWorkspace } from '../support/tool-context.js';

// A workspace may hold names with line breaks, controls, bidi overrides, or the shape of a
// grep match. glob, grep and list print one name per line (grep `name:line: text`): such a
// name read as two lines, as a match that is not there, or (below a folder named with a line
// break) was not found at all. Now a name that could mislead prints JSON-quoted, and is found.

/** Every kind of hostile file name, with why it misleads unquoted. */
const HOSTILE = [
  'nl\nsrc/secret.ts', // read as two lines, the second naming no file
  'cr\rx.ts',
  'tab\tx.ts',
  'ls\u2028x.ts', // a line break to JavaScript regexes and Python's splitlines
  'rlo\u202Egpj.ts', // shown backwards
  'x.ts:12: password=hunter2', // a grep match in x.ts that is not there
  '"q".ts', // taken for a quoted name
  'at@', // list's mark of a link named "at"
  'trailing ', // lost by a reader that trims
] as const;

/** A printed name read back: a JSON string when it starts with `"`, else the name itself. */
function readBack(printed: string): string {
  return printed.startsWith('"') ? (JSON.parse(printed) as string) : printed;
}

/** A grep line split into its name and line number; the name is quoted or holds no `:<digit>`. */
function grepLine(line: string): { name: string; line: number } {
  const quotedName = /^("(?:[^"\\]|\\.)*")/.exec(line)?.[1];
  const name = quotedName ?? line.slice(0, line.search(/:\d/));
  const rest = /^:(\d+): /.exec(line.slice(name.length));
  if (!rest) throw new Error(`not a grep line: ${JSON.stringify(line)}`);
  return { name: readBack(name), line: Number(rest[1]) };
}

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
  for (const path of [...HOSTILE, 'plain.ts', 'x.ts']) await ws.file(path, 'needle\n');
});
afterEach(() => ws.cleanup());

describe('hostile names in glob, grep and list', () => {
  it('glob finds every file, below a folder with a line break too, each line one real path', async () => {
    const { text } = await runTool(createGlobTool(), { pattern: '**/*' }, createToolContext({ workspace: ws.dir }));
    const lines = text.split('\n');
    expect(lines.map(readBack).sort()).toEqual([...HOSTILE, 'plain.ts', 'x.ts'].sort());
    expect(lines).toContain('plain.ts'); // a plain name prints as it always did
    expect(lines).toContain('"nl\\nsrc/secret.ts"');
    expect(lines).toContain('"rlo\\u202egpj.ts"');
    expect(lines.filter((line) => line.startsWith('"'))).toHaveLength(HOSTILE.length);
  });

  it('glob skips .git below a folder with a line break, as it does anywhere', async () => {
    await ws.file('nl\nsrc/.git/config', 'x');
    const { text } = await runTool(createGlobTool(), { pattern: '*/*/*' }, createToolContext({ workspace: ws.dir }));
    expect(text).toMatch(/^No files match/);
  });

  it('grep answers one real match per file: no line reads as a match in x.ts line 12', async () => {
    const { text } = await runTool(createGrepTool(), { pattern: 'needle' }, createToolContext({ workspace: ws.dir }));
    const matches = text.split('\n').map(grepLine);
    expect(matches.map((m) => m.name).sort()).toEqual([...HOSTILE, 'plain.ts', 'x.ts'].sort());
    expect(matches.every((m) => m.line === 1)).toBe(true);
    expect(text).toContain('\n"x.ts:12: password=hunter2":1: needle');
    expect(text).toContain('\nplain.ts:1: needle');
  });

  it('grep with include finds the file below a folder with a line break', async () => {
    const { text } = await runTool(createGrepTool(), { pattern: 'needle', include: 'secret.ts' }, createToolContext({ workspace: ws.dir }));
    expect(text).toBe('"nl\\nsrc/secret.ts":1: needle');
  });

  it('list marks folders and links after the quoted name; a file "at@" is no link "at"', async () => {
    await symlink('x.ts', join(ws.dir, 'at'));
    await symlink('nl\nsrc', join(ws.dir, 'to\nsrc'));
    const { text } = await runTool(createListTool(), {}, createToolContext({ workspace: ws.dir }));
    const lines = text.split('\n');
    expect(lines).toContain('"nl\\nsrc"/');
    expect(lines).toContain('"to\\nsrc"@/');
    expect(lines).toContain('at@');
    expect(lines).toContain('"at@"');
    expect(lines).toContain('"x.ts:12: password=hunter2"');
    expect(lines).toContain('"trailing "');
    expect(lines).toHaveLength(HOSTILE.length + 4); // plain.ts, x.ts and the two links; nl\nsrc/ is one line
  });

  it('a hostile path given to a tool shows quoted in its messages', async () => {
    const context = createToolContext({ workspace: ws.dir });
    expect((await runTool(createListTool(), { path: 'tab\tx.ts' }, context)).error).toBe('"tab\\tx.ts" is a file, not a folder; use read to see its content');
    expect((await runTool(createGlobTool(), { pattern: '*', path: 'no\nsuch' }, context)).error).toBe('File not found: "no\\nsuch"');
    expect((await runTool(createGrepTool(), { pattern: 'zzz', path: 'cr\rx.ts' }, context)).text).toBe('No matches for /zzz/ in "cr\\rx.ts"');
  });

  it('a name whose bytes are not UTF-8 is left out (no tool can name it), and list says so', async () => {
    await writeFile(Buffer.from(`${ws.dir}/bad\xff.ts`, 'latin1'), 'needle\n');
    const context = createToolContext({ workspace: ws.dir });
    expect((await runTool(createGlobTool(), { pattern: 'bad*' }, context)).text).toBe('No files match bad* in .');
    const listed = (await runTool(createListTool(), {}, context)).text;
    expect(listed).not.toContain('bad');
    expect(listed).toMatch(/\n\n\(1 more entry not shown: a name that is not UTF-8 cannot be given to a tool; use bash\.\)$/);
  });
});

// Characters that make names hostile, and a few plain ones to build names around them.
const CHARS = ['a', 'b', '.', ' ', '"', '\\', ':', '1', '@', '\n', '\r', '\t', '\u2028', '\u2029', '\u202E', '\u0085', '\u200B', '\uFEFF', '\u007F', '\u001B', 'é', '😀'];
const name = fc
  .array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 10 })
  .map((chars) => chars.join(''))
  .filter((n) => n !== '.' && n !== '..');

describe('any names, property', () => {
  it('each glob and list line reads back as exactly one real file, and every file is shown', async () => {
    const top = await mkdtemp(join(tmpdir(), 'rxharness-hostile-'));
    try {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(name, { minLength: 1, maxLength: 8 }), name, async (names, folder) => {
          const dir = join(top, String(run++));
          await mkdir(join(dir, folder), { recursive: true });
          const files = names.map((n) => `${folder}/${n}`);
          for (const file of files) await writeFile(join(dir, file), 'x');
          const context = createToolContext({ workspace: dir });
          const globbed = (await runTool(createGlobTool(), { pattern: '**/*' }, context)).text.split('\n').map(readBack);
          expect(globbed.sort()).toEqual([...files].sort());
          const listed = (await runTool(createListTool(), { path: folder }, context)).text.split('\n').map(readBack);
          expect(listed.sort()).toEqual([...names].sort());
          for (const file of globbed) expect((await lstat(join(dir, file))).isFile()).toBe(true);
        }),
        { numRuns: 40, seed: 67 },
      );
    } finally {
      await rm(top, { recursive: true, force: true });
    }
  });
});
