import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';

// Lines built to wear the reader out: very long words, deep `$( $( ... ) )`, thousands of
// `[[`, `((`, `$[`, `$((`, backticks, `eval`s, each with an `rm x` (or a change of PATH) in it.
// The decision must come back, without throwing, and must not let the line through: denied
// by the rule, or unreadable (the reader's budgets and limits turn work it will not do into
// "cannot check", never into "nothing here").

const denyRm: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }];
const allowGit: PermissionRule[] = [{ tool: 'bash', action: 'allow', pattern: 'git *' }];

/** [what, a hostile line of about `n` repeats that runs `rm x`] */
const SHAPES: readonly (readonly [string, (n: number) => string])[] = [
  ['a long word', (n) => `echo ${'a'.repeat(n * 5)}; rm x`],
  ['a long assignment value', (n) => `x=${'PATH'.repeat(n)}; rm x`],
  ['nested $( )', (n) => `echo ${'$( '.repeat(n)}rm x${' )'.repeat(n)}`],
  ['nested "$( )"', (n) => `echo ${'"$( '.repeat(n)}rm x${' )"'.repeat(n)}`],
  ['many [[ ]]', (n) => `${'[[ a ]] && '.repeat(n)}rm x`],
  ['many (( ))', (n) => `${'(( i++ )); '.repeat(n)}rm x`],
  ['many $[ ]', (n) => `echo ${'$[1]'.repeat(n)}; rm x`],
  ['an unclosed $[ of brackets', (n) => `echo $[${'['.repeat(n * 5)}\nrm x`],
  ['many $(( ))', (n) => `echo ${'$((1))'.repeat(n)}; rm x`],
  ['nested $(( ))', (n) => `echo ${'$(('.repeat(n)}1${'))'.repeat(n)}; rm x`],
  ['many backticks', (n) => `echo ${'`a`'.repeat(n)}; rm x`],
  ['many eval', (n) => `${'eval '.repeat(n)}rm x`],
  ['many read prompts', (n) => `read ${'-p "$m" '.repeat(n)}a; rm x`],
  ['a long =~ regex', (n) => `[[ a =~ ${'(x|'.repeat(n)} ]]; rm x`],
  ['many words assigning PATH in arithmetic', (n) => `(( x )); echo ${'PATH=1 '.repeat(n)}; rm x`],
  // No rm here: past the budget of tests, the arithmetic's PATH=1 must still make the line unreadable.
  ['many [[ ]], then (( PATH = 1 ))', (n) => `${'[[ a ]]; '.repeat(n)}(( PATH = 1 )); ls`],
];

describe('hostile shapes of a line', () => {
  const deny = new PermissionPolicy({ rules: denyRm });
  const git = new PermissionPolicy({ rules: allowGit });

  it('each shape is denied under deny rm *, and not allowed under allow git *, at any size (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SHAPES), fc.integer({ min: 1, max: 2500 }), ([what, shape], n) => {
        const line = shape(n);
        const decision = deny.evaluate('bash', line);
        expect(decision.action, `${what} x${n}`).toBe('deny');
        expect(git.evaluate('bash', line).action, `${what} x${n}`).not.toBe('allow');
      }),
      { numRuns: 40 },
    );
  });

  it.each(SHAPES)('%s at 2,000 repeats (a 10,000-character line or more) is denied', (_what, shape) => {
    const line = shape(2000);
    expect(line.length).toBeGreaterThanOrEqual(6000);
    expect(() => deny.evaluate('bash', line)).not.toThrow();
    expect(deny.evaluate('bash', line).action).toBe('deny');
  });
});
