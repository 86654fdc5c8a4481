import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGrepTool } from '../../src/tools/builtin/grep.js';
import { createToolContext, makeWorkspace, runTool, type TestWorkspace } from '../support/tool-context.js';

// grep splits a file at `\n` only and showed the matched text raw after `name:line: `. A line
// holding `\r`, NEL, U+2028 / U+2029 read as two lines (the second a made-up match in another
// file), a bidi override showed it backwards, ESC spoke to the terminal. Then those were
// escaped but backslashes were not, so a file's own `\` `r` read as a carriage return. Now a
// line holding any of them is JSON-quoted whole; all other lines, tabs and backslashes
// included, are as they are.

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

async function grep(pattern: string, options: { maxLineLength?: number } = {}): Promise<string> {
  return (await runTool(createGrepTool(options), { pattern }, createToolContext({ workspace: ws.dir }))).text;
}

/** Every line break a reader of the answer may split at. */
const ANY_BREAK = /\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/;

describe('grep escapes what makes a matched line read as something else', () => {
  it.each([
    ['a carriage return', 'key = 1;\rsrc/b.ts:9: planted', '"key = 1;\\rsrc/b.ts:9: planted"'],
    ['a next line (NEL)', 'key = 1;\u0085src/b.ts:9: planted', '"key = 1;\\u0085src/b.ts:9: planted"'],
    ['a line separator', 'key = 1;\u2028src/b.ts:9: planted', '"key = 1;\\u2028src/b.ts:9: planted"'],
    ['a paragraph separator', 'key = 1;\u2029src/b.ts:9: planted', '"key = 1;\\u2029src/b.ts:9: planted"'],
    ['a bidi override', 'key = "\u202Eexe.txt"', '"key = \\"\\u202eexe.txt\\""'],
    ['an escape sequence', 'key \u001b[2Jcleared', '"key \\u001b[2Jcleared"'],
    ['a carriage return and backslashes', 'key = "\\r";\rx', '"key = \\"\\\\r\\";\\rx"'],
  ])('%s shows JSON-quoted whole, and the answer stays one line', async (_what, line, shown) => {
    await ws.file('a.ts', `${line}\n`);
    const text = await grep('key');
    expect(text).toBe(`a.ts:1: ${shown}`);
    expect(text.split(ANY_BREAK)).toHaveLength(1);
    expect(JSON.parse(text.slice('a.ts:1: '.length))).toBe(line.trim());
  });

  it('shows a file\'s own backslash and `r` unlike a carriage return', async () => {
    await ws.file('a.ts', 'key = 1;\\rsrc\nkey = 1;\rsrc\n');
    expect(await grep('key')).toBe('a.ts:1: key = 1;\\rsrc\na.ts:2: "key = 1;\\rsrc"');
  });

  it('quotes a line that starts and ends with a quote, which would read as a quoted line', async () => {
    await ws.file('a.ts', '"key\\u2028"\n"key": 1,\n');
    expect(await grep('key')).toBe('a.ts:1: "\\"key\\\\u2028\\""\na.ts:2: "key": 1,');
  });

  it('leaves ordinary text as it was: tabs, backslashes, non-ASCII letters, CRLF line ends', async () => {
    await ws.file('a.ts', 'key\t= "\\n\\u2028";\r\nkey = "héllo 世界 🙂"\r\n');
    expect(await grep('key')).toBe('a.ts:1: key\t= "\\n\\u2028";\na.ts:2: key = "héllo 世界 🙂"');
  });

  it('cuts the line first and escapes after, so no escape is cut in two', async () => {
    await ws.file('a.ts', 'keyx\u2028rest of the line\n');
    expect(await grep('key', { maxLineLength: 5 })).toBe('a.ts:1: "keyx\\u2028…"');
  });
});
