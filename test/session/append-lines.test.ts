import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshLineLead, freshLineLeadOf } from '../../src/session/append-lines.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rxharness-append-lines-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The appenders of `FileSessionStore` start on a fresh line after a cut one (file-session-cut-lines.test.ts drives them). */
describe('freshLineLead', () => {
  it('a newline only after a cut last line: none for an empty file or one ending in a newline', () => {
    expect(freshLineLead(undefined)).toBe('');
    expect(freshLineLead(0x0a)).toBe('');
    expect(freshLineLead('}'.charCodeAt(0))).toBe('\n');
    expect(freshLineLead(0x0d)).toBe('\n'); // "\r" ends no line of these files
  });

  it.each([
    ['', ''],
    ['{"a":1}\n', ''],
    ['{"a":1}\n{"b":', '\n'],
    [Buffer.concat([Buffer.from('{"a":"'), Buffer.from('\u00e9').subarray(0, 1)]), '\n'], // cut inside a character
  ])('reads only the last byte of an open file: %j -> %j', async (content, lead) => {
    const file = join(dir, 'f.jsonl');
    await writeFile(file, content);
    const handle = await open(file, 'r');
    try {
      expect(await freshLineLeadOf(handle)).toBe(lead);
    } finally {
      await handle.close();
    }
  });
});
