import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bashSandbox, denyRm, itAllowsEach, itDeniesEach } from './support/bash-sandbox.js';

// A quoted word holding an expansion inside the words of find's `-exec` (`-execdir`, `-ok`,
// `-okdir`) may be `;` when it runs (or `+` after `{}`), ending the command early: find then
// reads the words after it as its own primaries, so a later `-exec rm -rf src ;` runs. Those
// words are judged as primaries too: a later `-exec` as its own command, a word known only
// when it runs as an option of find.

const sandbox = bashSandbox('rx-find-exec-ends-');

const ATTACKS = [
  "x=';'; find src -exec true \"$x\" -exec rm -rf src \\;",
  "x=';'; find src -exec true \"${x}\" -exec rm -rf src \\;",
  "x=';'; find src -execdir true \"$x\" -exec rm -rf src \\;",
  "x=';'; find src -ok true \"$x\" -exec rm -rf src \\;",
  "x=+; find src -exec true {} \"$x\" -exec rm -rf src {} +",
  "find src -exec true \";$y\" -exec rm -rf src \\;",
  "x=';'; y=-delete; find src -exec echo \"$x\" \"$y\" -exec true {} \\;",
];

describe('a quoted expansion that may end the command of find -exec', () => {
  it('bash removes src/a with each (the attacks are real)', () => {
    for (const line of ATTACKS) expect(sandbox(line, { input: 'y\ny\ny\n' }).changed, line).toBe(true);
  }, 60_000);

  itDeniesEach(ATTACKS);

  // Any of find's four command actions, the expansion at any place among the command's words,
  // ended by `;` or by `{} +`: the later `-exec rm` is judged as a command.
  it('is denied under deny rm * wherever it stands (property)', () => {
    const action = fc.constantFrom('-exec', '-execdir', '-ok', '-okdir');
    const word = fc.constantFrom('"$x"', '"${x}"', '"$@"', '"${x:-;}"', '"$x$y"', '";$x"', '"${a[0]}"', '"$1"');
    const filler = fc.array(fc.constantFrom('a', '-n', '{}', "'b c'", '"d"', '--'), { maxLength: 4 });
    fc.assert(
      fc.property(action, action, filler, word, filler, fc.boolean(), (first, second, before, ending, after, plus) => {
        const line = `find src ${first} true ${[...before, ending, ...after].join(' ')} ${second} rm -rf src ${plus ? '{} +' : '\\;'}`;
        expect(denyRm.evaluate('bash', line).action, line).toBe('deny');
      }),
      { numRuns: 300 },
    );
  });

  it('the same words fixed (no expansion) leave the later -exec an argument, allowed (property)', () => {
    const filler = fc.array(fc.constantFrom('a', '-n', '{}', "'b c'", '"d"', '--', '"$x/y"', '"a$x"'), { maxLength: 4 });
    fc.assert(
      fc.property(filler, (words) => {
        const line = `find src -exec true ${words.join(' ')} -exec rm -rf src \\;`;
        expect(denyRm.evaluate('bash', line).action, line).toBe('allow');
      }),
      { numRuns: 100 },
    );
  });
});

describe('ordinary find -exec lines stay allowed', () => {
  itAllowsEach([
    "find . -name '*.ts' -exec grep -l foo {} +",
    'find . -exec echo "{}" \\;',
    'find . -name "*.ts" -exec grep -l "$pattern" {} +',
    'find . -type f -exec grep -c "^$x" {} +',
    "find . -exec sh -c 'echo \"$1\"' _ {} \\;",
  ]);
});
