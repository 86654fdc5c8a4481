import { beforeEach, describe, expect, it } from 'vitest';
import { createGlobTool } from '../../src/tools/builtin/glob.js';
import { createGrepTool } from '../../src/tools/builtin/grep.js';
import { relativeGlobProblem } from '../../src/tools/relative-glob.js';
import { runTool } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// A model-given glob becomes picomatch's backtracking regex, matched on the main thread
// against every file walked: `*a*a*a*a*a*a*b` against a 52-character name blocked the event
// loop for seconds (the permission audit). Such globs are refused before any walk; what
// the cap costs is measured in relative-glob.ts, not here.

const fresh = toolContextPerTest();
beforeEach(async () => {
  await fresh.ws.file('src/a.test.ts', 'x');
  await fresh.ws.file('test/unit/b.spec.ts', 'x');
});

const REFUSED = ['*a*a*a*a*a*a*b', '*a*a*b', '**/*a*a*b', '**/*a*/**/*a*b', '*(a)*(a)*(a)b', '**/**/**/*a*b', 'src/{*a*a,*b*b}'];
const ACCEPTED = ['**/*.ts', 'src/**/*.test.ts', '**/test/**/*.spec.*', '*.{ts,tsx}', '**/*name*', 'src/a?[bc]*.ts', '+(src|test)/**'];

describe('globs with many wildcards', () => {
  it.each(REFUSED)('%j is refused', (glob) => {
    expect(relativeGlobProblem(glob, 'pattern')).toMatch(/^pattern ".*" has too many wildcards/);
  });

  it.each(ACCEPTED)('%j is accepted', (glob) => {
    expect(relativeGlobProblem(glob, 'pattern')).toBeUndefined();
  });

  it('glob answers with an error the model can act on, and lists nothing', async () => {
    const result = await runTool(createGlobTool(), { pattern: '*a*a*a*a*a*a*b' }, fresh.context);
    expect(result.error).toBe(
      'pattern "*a*a*a*a*a*a*b" has too many wildcards: at most 2 "*" (or "**", "*(...)") between two "/" and 4 in all, ' +
        'since matching more against long file names can take minutes. Use a simpler glob (e.g. "**/*name*") and narrow the results with "path" or grep.',
    );
  });

  it('grep refuses such an include the same way', async () => {
    const result = await runTool(createGrepTool(), { pattern: 'x', include: '**/*a*a*a*b' }, fresh.context);
    expect(result.error).toMatch(/^include "\*\*\/\*a\*a\*a\*b" has too many wildcards/);
  });

  it('still finds files with the usual shapes', async () => {
    const result = await runTool(createGlobTool(), { pattern: '**/test/**/*.spec.*' }, fresh.context);
    expect(result.text).toBe('test/unit/b.spec.ts');
  });
});
