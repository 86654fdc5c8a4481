import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';
import { commandParts } from '../../src/permission/bash/command-parts.js';

// `[[` is a test where a command starts: after a function's head (`f() {`, `function g {`) and
// after `time` too, where its `&&` joins two tests (no glob there is expanded). In a regular
// expression after `=~`, bash reads blanks, `;`, `&`, `<`, `>` and `#` inside parentheses as
// the expression's own text (`[[ a =~ (x |y) ]]`), never as a pipe or a list.

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });

/** Tests with a `&&` and a pattern, on a line with arithmetic: no file names reach the arithmetic. */
const TESTS = ['f() { [[ a && b* ]]; }; echo $((n))', 'function g { [[ a && b* ]]; }; echo $((n))', 'time [[ a && b* ]]; echo $((n))', 'time -p [[ a && b* ]]; echo $((n))'];
/** Where `[[` is no test, and `rm x` runs (or the line is refused by bash: judged all the same). */
const NO_TEST = ['x=() [[ a || rm x ]]', 'echo -p [[ a || rm x ]]', 'x=1 time [[ a || rm x ]]', '"time" [[ a || rm x ]]', 'echo f() [[ a || rm x ]]', '[[ a =~ (x) ]] || rm x', '[[ a =~ (x #) ]]; rm x', '[[ a =~ (x$(rm x)) ]]'];

const dir = mkdtempSync(join(tmpdir(), 'rx-test-groups-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('[[ where a command starts, and its regular expressions', () => {
  it.each(TESTS)('%j is allowed', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('allow');
  });

  it.each(NO_TEST)('%j is denied', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('deny');
  });

  it('a parenthesised regular expression with blanks is one test', () => {
    expect(commandParts('[[ a =~ (x |y) ]]').commands).toEqual(['[[ a =~ (x |y) ]]']);
    expect(commandParts('[[ a =~ (x;rm y) ]]').commands).toEqual(['[[ a =~ (x;rm y) ]]']);
    expect(policy.evaluate('bash', '[[ $v =~ ^(a b|c)$ ]] && echo ok').action).toBe('allow');
  });

  it('bash reads them so: the test matches, and nothing in the expression runs', () => {
    writeFileSync(join(dir, 'y'), '');
    const out = (line: string): string => spawnSync('bash', ['-c', line], { cwd: dir, encoding: 'utf8', timeout: 20_000 }).stdout;
    expect(out('[[ "x " =~ (x |y) ]] && echo yes')).toBe('yes\n');
    expect(out('[[ "a;rm y" =~ (a;rm y) ]] && echo yes')).toBe('yes\n');
    expect(existsSync(join(dir, 'y'))).toBe(true);
    expect(out('f() { [[ a && b ]]; }; f && echo yes; time [[ a && b ]] 2>/dev/null && echo timed')).toBe('yes\ntimed\n');
  }, 60_000); // bash is started for each line: a loaded machine is slow, never wrong

  it('floods stay readable and denied: 10,000-character words, deep and many parentheses (property)', () => {
    // [a hostile line of n repeats, the n that makes it 10,000 characters or more]
    const shapes: readonly (readonly [(n: number) => string, number])[] = [
      [(n) => `[[ a =~ ${'('.repeat(n)}x${')'.repeat(n)} ]]; rm x`, 5000],
      [(n) => `[[ a =~ ${'('.repeat(n)} ]]\nrm x`, 10_000],
      [(n) => `[[ a =~ (${'x '.repeat(n)}) ]] && rm x`, 5000],
      [(n) => `${'f'.repeat(n)}() { [[ a && b ]]; }; rm x`, 10_000],
      [(n) => `${'f() '.repeat(n)}[[ a ]]; rm x`, 2500],
      [(n) => `${'time '.repeat(n)}[[ a && b ]]; rm x`, 2000],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...shapes), fc.double({ min: 0, max: 1, noNaN: true }), ([shape, full], part) => {
        expect(policy.evaluate('bash', shape(1 + Math.floor(part * full))).action).toBe('deny');
      }),
      { numRuns: 30 },
    );
    for (const [shape, full] of shapes) {
      expect(shape(full).length).toBeGreaterThanOrEqual(10_000);
      expect(policy.evaluate('bash', shape(full)).action).toBe('deny');
    }
  }, 60_000); // bash is started for each line: a loaded machine is slow, never wrong
});
