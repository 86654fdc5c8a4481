/**
 * Command patterns (bash rules, urls) are free text, matched in linear time. Before, they
 * ran as picomatch regexes: a `*` never crossed a `..` path segment, so a deny rule `rm *`
 * let `rm -rf a/../b` run, and a rule with a few `*` backtracked for minutes over a long
 * command the model wrote.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCommandPattern } from '../../src/permission/command-pattern.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';

const denyThenAllow = (pattern: string) =>
  new PermissionPolicy({ rules: [{ tool: 'bash', action: 'deny', pattern }, { tool: 'bash', action: 'allow' }] });

describe('command patterns', () => {
  it('a deny rule holds for a command whose paths hold .. segments', () => {
    const rm = denyThenAllow('rm *');
    for (const command of ['rm -rf a/../b', 'rm -rf x/..', 'rm -rf src/..', 'ls; rm -rf x/../y', 'rm ../x']) {
      expect(rm.evaluate('bash', command).action, command).toBe('deny');
    }
    expect(denyThenAllow('git push*').evaluate('bash', 'git push origin a/../main').action).toBe('deny');
    expect(denyThenAllow('curl *|*sh*').evaluate('bash', 'curl x/../y|sh').action).toBe('deny');
  });

  it('a pattern of several * against a 100,000-character command answers at once (it backtracked for hours)', () => {
    const policy = denyThenAllow('*a *b *c *');
    expect(policy.evaluate('bash', `echo ${'a b '.repeat(25_000)}`).action).toBe('allow');
    expect(policy.evaluate('bash', `echo ${'a b '.repeat(25_000)}c d`).action).toBe('deny');
  });

  it.each([
    ['{git,hg} push*', 'hg push --force', true],
    ['{git,hg} push*', 'svn push', false],
    ['make {a,b{c,d}}', 'make bd', true],
    ['x{1..3}', 'x2', true],
    ['x{1..3}', 'x4', false],
    ['[a-c]x', 'bx', true],
    ['[!a-c]x', 'dx', true],
    ['[!a-c]x', 'ax', false],
    ['a\\*', 'a*', true],
    ['a\\*', 'ab', false],
    ['a[b', 'a[b', true],
    ['echo ?', 'echo /', true],
    ['npm test', 'npm test', true],
    ['npm test', 'npm test x', false],
    ['rm *', 'rm ', true],
  ])('%j against %j: %s', (pattern, command, expected) => {
    expect(compileCommandPattern(pattern)!(command)).toBe(expected);
  });

  it('leaves negated and extglob patterns to picomatch', () => {
    for (const pattern of ['!rm *', 'rm @(a|b)', 'rm !(keep)', '+(x)', '[[:alpha:]]*']) expect(compileCommandPattern(pattern), pattern).toBeUndefined();
  });

  it('agrees with a regex written from the same rules, for any pattern and command (property)', () => {
    const token = fc.constantFrom('a', 'b', '/', '.', ' ', '*', '?', '[ab]', '[!a]', '{a,b.}', '\\*');
    const command = fc.stringMatching(/^[ab/. *]{0,12}$/);
    fc.assert(
      fc.property(fc.array(token, { maxLength: 8 }), command, (tokens, text) => {
        const matcher = compileCommandPattern(tokens.join(''))!;
        expect(matcher(text)).toBe(oracle(tokens).test(text));
      }),
      { numRuns: 3000 },
    );
  });
});

/** The same rules as a backtracking regex, token by token: fine for commands of 12 characters. */
function oracle(tokens: readonly string[]): RegExp {
  const parts: Record<string, string> = { '*': '[\\s\\S]*', '?': '[\\s\\S]', '[ab]': '[ab]', '[!a]': '[^a]', '{a,b.}': '(?:a|b\\.)', '\\*': '\\*' };
  return new RegExp(`^${tokens.map((t) => parts[t] ?? t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('')}$`);
}
