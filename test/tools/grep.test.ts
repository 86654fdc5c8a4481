import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGrepTool } from '../../src/tools/builtin/grep.js';
import { createToolContext, makeWorkspace, runTool, type TestToolContext, type TestWorkspace } from '../support/tool-context.js';
import { watchWorkerThreads, within } from '../support/watch-worker-threads.js';

let root: TestWorkspace;
let ws: string;
let context: TestToolContext;
const grep = createGrepTool();

beforeEach(async () => {
  root = await makeWorkspace();
  ws = join(root.dir, 'ws');
  await root.file('ws/src/a.ts', 'const x = 1;\n// TODO: remove\nexport { x };\n');
  await root.file('ws/src/b.js', 'function f() {}\n  // TODO later  \n');
  await root.file('ws/notes.md', 'TODO in markdown\r\nsecond\r\n');
  await root.file('ws/node_modules/pkg/index.js', '// TODO vendored\n');
  await root.file('ws/.git/config', 'TODO git\n');
  await root.file('ws/image.bin', Buffer.concat([Buffer.from('TODO'), Buffer.from([0, 1, 2])]));
  await root.file('outside/leak.ts', '// TODO outside\n');
  context = createToolContext({ workspace: ws });
});
afterEach(() => root.cleanup());

describe('grep tool', () => {
  it('answers path:line: text, sorted, skipping node_modules, .git and binary files', async () => {
    const result = await runTool(grep, { pattern: 'TODO' }, context);
    expect(result.text.split('\n')).toEqual([
      'notes.md:1: TODO in markdown',
      'src/a.ts:2: // TODO: remove',
      'src/b.js:2: // TODO later',
    ]);
  });

  it('leaves .env files (which ask by default) out of folder searches, with a note, but searches one named as path', async () => {
    await root.file('ws/.env', 'TODO=secret');
    await root.file('ws/config/.env.local', 'TODO=secret');
    const result = await runTool(grep, { pattern: 'TODO' }, context);
    expect(result.text).not.toContain('TODO=secret');
    expect(result.text).toContain('(2 files needing approval were left out; to search one, give it as path, which asks for approval.)');
    expect((await runTool(grep, { pattern: 'TODO', path: '.env' }, context)).text).toBe('.env:1: TODO=secret');
  });

  it('takes JavaScript regular expressions', async () => {
    const result = await runTool(grep, { pattern: '^export \\{ \\w+ \\};$' }, context);
    expect(result.text).toBe('src/a.ts:3: export { x };');
  });

  it('filters files by the include glob, at any depth for a bare name glob', async () => {
    expect((await runTool(grep, { pattern: 'TODO', include: '*.ts' }, context)).text).toBe('src/a.ts:2: // TODO: remove');
    expect((await runTool(grep, { pattern: 'TODO', include: 'src/*.js' }, context)).text).toBe('src/b.js:2: // TODO later');
  });

  it('searches below path, or in a single file', async () => {
    const folder = await runTool(grep, { pattern: 'TODO', path: 'src' }, context);
    expect(folder.text.split('\n')).toEqual(['src/a.ts:2: // TODO: remove', 'src/b.js:2: // TODO later']);
    expect((await runTool(grep, { pattern: 'second', path: 'notes.md' }, context)).text).toBe('notes.md:2: second');
  });

  it('does not follow symbolic links out of the workspace', async () => {
    await symlink(join(root.dir, 'outside'), join(ws, 'linked'));
    await symlink(join(root.dir, 'outside/leak.ts'), join(ws, 'leak.ts'));
    expect((await runTool(grep, { pattern: 'outside' }, context)).text).toBe('No matches for /outside/ in .');
  });

  it('explains an invalid regular expression', async () => {
    const result = await runTool(grep, { pattern: 'foo(' }, context);
    expect(result.error).toMatch(/Invalid regular expression.*escape/);
  });

  it('refuses an include glob that climbs out', async () => {
    const result = await runTool(grep, { pattern: 'x', include: '../**/*.ts' }, context);
    expect(result.error).toMatch(/include must not contain "\.\."/);
  });

  it('caps matches and says there are more', async () => {
    await root.file('ws/many.txt', 'hit\n'.repeat(10));
    const result = await runTool(createGrepTool({ maxMatches: 3 }), { pattern: 'hit', path: 'many.txt' }, context);
    expect(result.text).toBe(
      'many.txt:1: hit\nmany.txt:2: hit\nmany.txt:3: hit\n\n(Showing the first 3 matches; there are more. Narrow the pattern, path or include.)',
    );
  });

  it('caps matches across files, counting what earlier files found', async () => {
    await root.file('ws/hits/one.txt', 'hit\nhit\n');
    await root.file('ws/hits/two.txt', 'hit\nhit\n');
    const result = await runTool(createGrepTool({ maxMatches: 3 }), { pattern: 'hit', path: 'hits' }, context);
    expect(result.text).toBe(
      'hits/one.txt:1: hit\nhits/one.txt:2: hit\nhits/two.txt:1: hit\n\n(Showing the first 3 matches; there are more. Narrow the pattern, path or include.)',
    );
  });

  it('a pattern that backtracks for ever does not block the process: cancelling stops the search', async () => {
    await root.file('ws/trap.txt', `${'a'.repeat(40)}b\n`);
    const threads = watchWorkerThreads();
    try {
      const searching = runTool(grep, { pattern: '^(a+)+$', path: 'trap.txt' }, context);
      // Waited for, not slept on: on a busy machine the file can take longer to read than any fixed delay.
      await within(threads.started, 15_000, 'a worker thread for the pattern');
      await new Promise((resolve) => setTimeout(resolve, 20)); // fires only if the main thread is free
      context.controller.abort();
      await expect(searching).rejects.toThrow('the search was stopped');
      await within(threads.ended, 15_000, 'the end of the spinning thread');
    } finally {
      threads.stop();
    }
  });

  it('cancelled before the file is matched: says the search was stopped, never "No matches"', async () => {
    await root.file('ws/found.txt', 'needle\n');
    context.controller.abort();
    await expect(runTool(grep, { pattern: 'needle', path: 'found.txt' }, context)).rejects.toThrow('the search was stopped');
    await expect(runTool(grep, { pattern: 'needle' }, context)).rejects.toThrow('the search was stopped');
  });

  it('cuts long matching lines', async () => {
    await root.file('ws/long.txt', `${'a'.repeat(50)}needle\n`);
    const result = await runTool(createGrepTool({ maxLineLength: 10 }), { pattern: 'needle', path: 'long.txt' }, context);
    expect(result.text).toBe('long.txt:1: aaaaaaaaaa…');
  });

  it('never cuts a long line between the two halves of a character', async () => {
    await root.file('ws/emoji.txt', `${'a'.repeat(9)}😀needle\n`);
    const result = await runTool(createGrepTool({ maxLineLength: 10 }), { pattern: 'needle', path: 'emoji.txt' }, context);
    expect(result.text).toBe('emoji.txt:1: aaaaaaaaa…');
  });

  it('says when nothing matches and names a missing path', async () => {
    expect(await runTool(grep, { pattern: 'zzz' }, context)).toEqual({ text: 'No matches for /zzz/ in .' });
    expect((await runTool(grep, { pattern: 'x', path: 'gone' }, context)).error).toBe('File not found: gone');
  });
});
