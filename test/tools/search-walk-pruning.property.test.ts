import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import picomatch from 'picomatch';
import { afterAll, describe, expect, it } from 'vitest';
import { searchGlob, searchMatcher, walkMatching } from '../../src/tools/search-walk.js';

// walkMatching skips a folder when no file below it can match the pattern, judging the folder
// segment by segment. That shortcut must never change the answer: over random small trees
// (names with glob syntax, dots, line breaks) and random patterns (braces holding `/`,
// extglobs, `**`, empty and `.` segments, a leading `!`, a trailing `/`), the walk returns
// exactly the files picomatch matches when given every file of the tree.

const root = mkdtempSync(join(tmpdir(), 'rxharness-walk-prop-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The same options as the walk's: dot files match, and `**` crosses a line break in a name. */
const MATCH_OPTIONS = { dot: true, posix: true, flags: 's' } as const;

const NAMES = ['a', 'b', 'ab', 'src', 'lib', 'x.ts', 'a.ts', '.d', '(a)', '[a]', 'a,b', '{a}', '!x', 'a\nb', 'a|b', 'p\\q'];
const TOKENS = [
  'a', 'b', 'src', 'x.ts', '*', '**', '?', '*.ts', 'a*', '{a,b}', '{a/b,src}', '{,a/}*', '@(a|src)', '!(src)', '+(a|b)',
  '*(a)', '[ab]', '[!a]*', '(a)', '\\(a\\)', '\\[a\\]', '{a}', 'a,b', '.', '', '.d', '!x', '\\!x', 'a?b', 'a\nb',
];

const tree = fc.uniqueArray(fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/')), {
  minLength: 1,
  maxLength: 12,
});
const pattern = fc
  .tuple(fc.constantFrom('', '', '!', './'), fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 4 }), fc.constantFrom('', '', '/'))
  .map(([prefix, parts, suffix]) => prefix + parts.join('/') + suffix);

/** Writes `files` under a fresh folder; a path whose folder is a file already (or the reverse) is skipped. */
function layout(files: readonly string[]): string {
  const dir = mkdtempSync(join(root, 'case-'));
  for (const file of files) {
    try {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), 'x');
    } catch {
      // a file where a folder should be, or a folder where the file should be: not in this tree
    }
  }
  return dir;
}

/** Every regular file under `dir`, relative to it, as the full list the walk is checked against. */
function allFiles(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const path = under === '' ? entry.name : `${under}/${entry.name}`;
    return entry.isDirectory() ? allFiles(dir, path) : [path];
  });
}

describe('walkMatching pruning', () => {
  it('returns what picomatch matches among all the files: pruning never drops or adds one', async () => {
    await fc.assert(
      fc.asyncProperty(tree, fc.array(pattern, { minLength: 1, maxLength: 8 }), async (files, patterns) => {
        const dir = layout(files);
        const every = allFiles(dir);
        for (const glob of patterns) {
          const matches = picomatch(searchGlob(glob), MATCH_OPTIONS);
          const walked = await walkMatching(dir, searchMatcher(glob), [], new AbortController().signal);
          expect(walked.sort(), JSON.stringify(glob)).toEqual(every.filter((file) => matches(file)).sort());
        }
      }),
      { numRuns: 150 },
    );
  });
});
