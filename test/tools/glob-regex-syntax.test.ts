import { beforeEach, describe, expect, it } from 'vitest';
import { createGlobTool } from '../../src/tools/builtin/glob.js';
import { createGrepTool } from '../../src/tools/builtin/grep.js';
import { relativeGlobProblem } from '../../src/tools/relative-glob.js';
import { runTool } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// picomatch passes regex syntax through: `(a+)+` stays a group repeated by `+`, `{a,aa}` an
// alternation. `**` + `/([a-z.-]+)+Z` took 350 ms against a 25-character file name and
// doubles with every character more (hours for an ordinary 36-character test file's name),
// `{?,??}` 22 times over 450 ms: on the main thread, where no timeout can stop a regex. Such
// globs are refused before any walk, whatever files the workspace holds.

const fresh = toolContextPerTest();
beforeEach(async () => {
  await fresh.ws.file('src/a.test.ts', 'x');
  await fresh.ws.file('test/b.spec.js', 'x');
  await fresh.ws.file('docs/(1).md', 'x');
});

const REGEX_GROUPS = ['**/([a-z.-]+)+Z', 'x(a|aa)?', 'notes (1).md'];
const REPEATED_GROUPS = ['@(a+)+Z', '@(a|aa)+Z', '{a,aa}+Z', '!(a*)+Z', '@(@(a|aa)+)Z'];
const OVERLAPPING_REPEATS = ['+(a|aa)Z', '*(a|?)Z', '+([a-z]+)Z', '+(@(a|b))Z', '*(a*)Z'];
const MANY_ALTERNATIVES = ['{?,??}'.repeat(22) + 'Z', '**/' + '{a,aa}'.repeat(6) + 'b', '@(a|aa|aaa|aaaa|aaaaa|aaaaaa)@(a|aa|aaa|aaaa|aaaaa|aaaaaa)'];

describe('globs that picomatch would run as backtracking regexes', () => {
  it.each(REGEX_GROUPS)('%j: a bare "(" group is refused, saying how to match a parenthesis', (glob) => {
    expect(relativeGlobProblem(glob, 'pattern')).toMatch(/has a "\(" that opens no @\(\.\.\.\).*write \[\(\] or \[\)\]\.$/);
  });

  it.each(REPEATED_GROUPS)('%j: a group repeated by "+" is refused', (glob) => {
    expect(relativeGlobProblem(glob, 'pattern')).toMatch(/repeats a group with "\+" after "\)" or "\}"/);
  });

  it.each(OVERLAPPING_REPEATS)('%j: *(...) or +(...) around wildcards or overlapping alternatives is refused', (glob) => {
    expect(relativeGlobProblem(glob, 'pattern')).toMatch(/repeats wildcards, groups or alternatives that overlap/);
  });

  it.each(MANY_ALTERNATIVES)('%j: more than 32 alternatives in all are refused, with their count', (glob) => {
    expect(relativeGlobProblem(glob, 'pattern')).toMatch(/has \d+ alternatives in its \{\.\.\.\} and @\(\.\.\.\) groups taken together; at most 32/);
  });

  it('"+" after a class counts as a wildcard: [a-z]+ three times in a name is too many', () => {
    expect(relativeGlobProblem('v[0-9]+.ts', 'pattern')).toBeUndefined();
    expect(relativeGlobProblem('[a-z]+[a-z]+[a-z]+Z', 'pattern')).toMatch(/has too many wildcards/);
    expect(relativeGlobProblem('@(a+|b+)@(c)Z', 'pattern')).toMatch(/has too many wildcards/);
  });

  it('a glob over 4096 characters is refused by its length, before it is read', () => {
    expect(relativeGlobProblem('{a/'.repeat(100_000), 'include')).toBe(
      'include is 300000 characters long; at most 4096. Use a simpler glob (e.g. "**/*name*") and narrow the results with "path" or grep.',
    );
  });

  it.each(['{src,test,lib,bench}/**/*.{ts,tsx,js,jsx,mjs,cjs}', '**/*.{test,spec}.{ts,js}', '+(src|test)/**', '@(src|test)/*', '*(ab)', 'c++/*.h', 'docs/[(]1[)].md', '\\(x\\)'])(
    '%j, an ordinary shape, is accepted',
    (glob) => {
      expect(relativeGlobProblem(glob, 'pattern')).toBeUndefined();
    },
  );

  it('glob refuses such a pattern before walking, and grep such an include', async () => {
    const glob = await runTool(createGlobTool(), { pattern: '**/([a-z.-]+)+Z' }, fresh.context);
    expect(glob.error).toMatch(/^pattern "\*\*\/\(\[a-z\.-\]\+\)\+Z" has a "\(" that opens no/);
    const grep = await runTool(createGrepTool(), { pattern: 'x', include: '{a,aa}+.ts' }, fresh.context);
    expect(grep.error).toMatch(/^include "\{a,aa\}\+\.ts" repeats a group/);
  });

  it('still finds files with braces, extglobs and bracketed parentheses', async () => {
    expect((await runTool(createGlobTool(), { pattern: '**/*.{test,spec}.{ts,js}' }, fresh.context)).text).toBe('src/a.test.ts\ntest/b.spec.js');
    expect((await runTool(createGlobTool(), { pattern: '@(src|test)/*' }, fresh.context)).text).toBe('src/a.test.ts\ntest/b.spec.js');
    expect((await runTool(createGlobTool(), { pattern: 'docs/[(]1[)].md' }, fresh.context)).text).toBe('docs/(1).md');
  });
});
