import { beforeEach, describe, expect, it } from 'vitest';
import { createGlobTool } from '../../src/tools/builtin/glob.js';
import { createGrepTool } from '../../src/tools/builtin/grep.js';
import { relativeGlobProblem } from '../../src/tools/relative-glob.js';
import { searchGlob, userSearchMatcher } from '../../src/tools/search-walk.js';
import { runTool } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// Patterns a model writes by hand: an empty segment (`src//a.ts`, `src/*/`) made picomatch
// throw, which glob answered "Search failed in ." and grep "Cannot access ." (blaming the
// folder); `src/./a.ts` found nothing; and `!lib/*` pruned every folder while meaning
// "everything but lib/*", so only top-level files came back.

const fresh = toolContextPerTest();
beforeEach(async () => {
  for (const file of ['a.ts', 'src/a.ts', 'src/x/b.ts', 'src/x/y/c.ts', 'lib/c.ts', '!x/d.ts']) await fresh.ws.file(file, 'TODO\n');
});

const glob = async (pattern: string) => runTool(createGlobTool(), { pattern }, fresh.context);
const grep = async (include: string) => runTool(createGrepTool(), { pattern: 'TODO', include }, fresh.context);

describe('empty and "." segments', () => {
  it.each([
    ['src//a.ts', 'src/a.ts'],
    ['src/./a.ts', 'src/a.ts'],
    ['./src/a.ts', 'src/a.ts'],
    ['src/*//*.ts', 'src/x/b.ts'],
  ])('glob %j finds %j', async (pattern, file) => {
    expect(await glob(pattern)).toEqual({ text: file });
  });

  it('grep reads an include with an empty segment the same way', async () => {
    expect(await grep('src//x/*.ts')).toEqual({ text: 'src/x/b.ts:1: TODO' });
  });
});

describe('a pattern ending in a folder', () => {
  it('names every file below the folders it matches', async () => {
    expect((await glob('src/*/')).text).toBe('src/x/b.ts\nsrc/x/y/c.ts');
    expect((await glob('src/x/y/.')).text).toBe('src/x/y/c.ts');
    expect((await glob('**/')).text).toBe('!x/d.ts\na.ts\nlib/c.ts\nsrc/a.ts\nsrc/x/b.ts\nsrc/x/y/c.ts');
  });

  it('as grep include, searches the files below that folder', async () => {
    expect(await grep('src/x/')).toEqual({ text: 'src/x/b.ts:1: TODO\nsrc/x/y/c.ts:1: TODO' });
  });

  it.each([
    ['src//a.ts', 'src/a.ts'],
    ['src/*/', 'src/*/**'],
    ['**/', '**'],
    ['./', '**'],
    ['src/**/*.ts', 'src/**/*.ts'],
    ['{a/,b}/x', '{a/,b}/x'],
  ])('searchGlob(%j) is %j', (pattern, normal) => {
    expect(searchGlob(pattern)).toBe(normal);
  });
});

describe('a leading "!"', () => {
  const refusal =
    'pattern "!lib/*" starts with "!", which would match every file but those it names; name the files to find ' +
    'instead, or leave a folder out with an extglob such as "!(lib)/**" (write "\\!" for a name that starts with "!")';

  it('is refused by glob with a way to exclude instead', async () => {
    expect((await glob('!lib/*')).error).toBe(refusal);
  });

  it('is refused by grep for include the same way', async () => {
    expect((await grep('!lib/*')).error).toBe(refusal.replace(/^pattern/, 'include'));
  });

  it('is refused by grep for a bare name too, though grep matches that at any depth (`**/!x`, not negated)', async () => {
    expect((await grep('!x')).error).toBe(refusal.replace(/^pattern/, 'include').replaceAll('!lib/*', '!x'));
  });

  it('the extglob it suggests leaves the folder out', async () => {
    expect((await glob('!(lib)/**')).text).toBe('!x/d.ts\na.ts\nsrc/a.ts\nsrc/x/b.ts\nsrc/x/y/c.ts');
  });

  it('an escaped "!" names a folder that starts with "!"', async () => {
    expect(await glob('\\!x/*')).toEqual({ text: '!x/d.ts' });
  });
});

describe('a glob picomatch cannot compile', () => {
  it('is named as a pattern problem, not as a folder that cannot be read', () => {
    // Past picomatch's own length cap: the search tools refuse it sooner (4096 characters), so
    // this is the net under their check, not a message they show.
    const long = 'a'.repeat(70_000);
    expect(userSearchMatcher(long, 'include')).toMatch(/^include "a+" is not a valid glob: Input length: 70000, exceeds maximum allowed length: 65536$/);
    expect(relativeGlobProblem(long, 'include')).toMatch(/^include is 70000 characters long/);
  });
});
