/**
 * The permission layer's one glob matcher (written targets on disk, files other programs
 * run). The model writes the globs, so matching must stay bounded whatever it writes: as
 * regular expressions, `.` and 22 stars held a decision 3 s, fourteen stars on a 24-character
 * name 20 s, and each star more multiplied it. Without the walk the last test hangs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globMatcher } from '../../src/permission/bash/glob-match.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';

describe('globMatcher', () => {
  it('reads a segment as bash does', () => {
    const cases: [string, string, boolean][] = [
      ['*.ts', 'a.ts', true],
      ['*.ts', 'a.tsx', false],
      ['.gi?', '.git', true],
      ['?', '😀', true],
      ['[a-c]x', 'bx', true],
      ['[!a-c]x', 'bx', false],
      ['[^a-c]x', 'dx', true],
      ['\\*', '*', true],
      ['\\*', 'a', false],
      ['a*b*c', 'aXbYc', true],
      ['a*b*c', 'aXbY', false],
      ['', '', true],
    ];
    for (const [glob, name, expected] of cases) expect(globMatcher(glob).test(name), `${glob} ~ ${name}`).toBe(expected);
  });

  it('matches in either case when asked, and reads run-time parts as any text when asked', () => {
    expect(globMatcher('.GI?', { caseless: true }).test('.git')).toBe(true);
    expect(globMatcher('.GI?').test('.git')).toBe(false);
    expect(globMatcher('front$x', { runTime: true }).test('frontend')).toBe(true);
    expect(globMatcher('a{b,c}', { runTime: true }).test('aXYZ')).toBe(true);
    expect(globMatcher('front$x').test('frontend')).toBe(false);
  });

  it('property: agrees with a regular expression of the glob on short inputs', () => {
    const glob = fc.stringMatching(/^[ab*?]{0,6}$/);
    const name = fc.stringMatching(/^[ab]{0,8}$/);
    fc.assert(
      fc.property(glob, name, (g, n) => {
        const source = g.replace(/\*/g, '.*').replace(/\?/g, '.');
        expect(globMatcher(g).test(n)).toBe(new RegExp(`^${source}$`, 's').test(n));
      }),
    );
  });

  it('past 128 parts a segment matches any name: more is judged, never less', () => {
    expect(globMatcher('x?'.repeat(100)).test('anything')).toBe(true);
  });
});

describe('a line of many stars (the model writes it)', () => {
  it('is decided, not held: the files other programs run and the write rules alike', () => {
    const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'deny', pattern: 'rm *' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });
    for (const line of [`echo x > .${'*'.repeat(40)}Z`, `cp a .${'*'.repeat(40)}Z/hooks/`, `echo x > ${'*'.repeat(40)}Z/a.ts`]) {
      expect(['allow', 'ask', 'deny']).toContain(policy.evaluate('bash', line, { workspace: process.cwd() }).action);
    }
  });
});
