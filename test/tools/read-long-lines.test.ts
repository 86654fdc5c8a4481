import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedLines } from '../../src/tools/bounded-lines.js';
import { createReadTool } from '../../src/tools/builtin/read.js';
import { runTool } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// `read` used readline, which holds a whole line before it can be cut to 2,000 characters:
// a 320 MB one-line file took 670 MB of memory (the permission audit). Lines are now cut
// while they stream.

const MB = 1024 * 1024;
const fresh = toolContextPerTest();

/** Writes `name`: one line of `megabytes` MB of `a`, then the line `next`. */
async function oneLongLine(name: string, megabytes: number): Promise<void> {
  const handle = await open(join(fresh.ws.dir, name), 'w');
  const chunk = Buffer.alloc(8 * MB, 0x61);
  for (let written = 0; written < megabytes; written += 8) await handle.write(chunk, 0, Math.min(8, megabytes - written) * MB);
  await handle.write('\nnext\n');
  await handle.close();
}

describe('read of a file with a huge line', () => {
  it('shows the start of a 50 MB line, says how much was cut, and reads the next line', async () => {
    await oneLongLine('bundle.min.js', 50);
    const result = await runTool(createReadTool(), { path: 'bundle.min.js' }, fresh.context);
    expect(result.text).toBe(`     1\t${'a'.repeat(2000)}… [line cut: ${50 * MB - 2000} more characters]\n     2\tnext`);
  });

  it('needs less heap than the line is long (a 96 MB line in a 48 MB heap)', async () => {
    await oneLongLine('blob.txt', 96);
    // A fresh process with a small heap: holding the line would end it with "heap out of memory".
    const script =
      "import { createReadTool } from './src/tools/builtin/read.ts'; import { createToolContext, runTool } from './test/support/tool-context.ts';" +
      `const r = await runTool(createReadTool(), { path: 'blob.txt' }, createToolContext({ workspace: ${JSON.stringify(fresh.ws.dir)} }));` +
      'console.log(r.text.split("\\n").at(-1));';
    const { stdout } = await promisify(execFile)(process.execPath, ['--max-old-space-size=48', '--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: join(import.meta.dirname, '../..'),
      timeout: 60_000,
    });
    expect(stdout).toBe('     2\tnext\n');
  });
});

describe('boundedLines', () => {
  /** What readline yields: lines split at \r\n, \n or a lone \r, no empty line after a final break. */
  const reference = (text: string): string[] => {
    const lines = text.split(/\r\n|\r|\n/);
    if (lines.at(-1) === '') lines.pop();
    return lines;
  };

  it('splits like readline however the text is chunked, keeping only the start of each line (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: fc.constantFrom('a', 'b', '\r', '\n') }), fc.array(fc.nat(), { maxLength: 6 }), fc.nat(4), async (text, cuts, keep) => {
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points].map((start, i, all) => text.slice(start, all[i + 1] ?? text.length));
        const got: { head: string; length: number }[] = [];
        for await (const line of boundedLines((async function* () { yield* chunks; })(), keep)) got.push(line);
        expect(got).toEqual(reference(text).map((line) => ({ head: line.slice(0, keep), length: line.length })));
      }),
    );
  });
});
