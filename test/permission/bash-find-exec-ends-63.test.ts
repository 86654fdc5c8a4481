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
  // ended by `;` or by `{} +`: the later `-exec rm` is judged as a command. After the expansion
  // come words find reads as its own (a fixed word it refuses there stops it: see below), or
  // `"$@"`, which may be several words (`; -name`) and make the next word a value.
  it('is denied under deny rm * wherever it stands (property)', () => {
    const action = fc.constantFrom('-exec', '-execdir', '-ok', '-okdir');
    const word = fc.constantFrom('"$x"', '"${x}"', '"$@"', '"${x:-;}"', '"$x$y"', '";$x"', '"${a[0]}"', '"$1"');
    const filler = fc.array(fc.constantFrom('a', '-n', '{}', "'b c'", '"d"', '--'), { maxLength: 4 });
    const primaries = fc.array(fc.constantFrom('-print', '-true', '!', '-o', '-a', '-not', '"$y"', '-name "$y"', '-type f'), { maxLength: 4 });
    const tail = fc.oneof(primaries, fc.tuple(fc.constant('"$@"'), filler).map(([many, rest]) => [many, ...rest]));
    fc.assert(
      fc.property(action, action, filler, word, tail, fc.boolean(), (first, second, before, ending, after, plus) => {
        const line = `find src ${first} true ${[...before, ending, ...after].join(' ')} ${second} rm -rf src ${plus ? '{} +' : '\\;'}`;
        expect(denyRm.evaluate('bash', line).action, line).toBe('deny');
      }),
      { numRuns: 300 },
    );
  });

  it('the same words fixed (no expansion) leave the later -exec an argument, allowed (property)', () => {
    // Not `"$x/y"`: BSD's find ends the command at a word starting with `;` (see bash-leftovers-65).
    const filler = fc.array(fc.constantFrom('a', '-n', '{}', "'b c'", '"d"', '--', '"a$x"', '"b/$x"'), { maxLength: 4 });
    fc.assert(
      fc.property(filler, (words) => {
        const line = `find src -exec true ${words.join(' ')} -exec rm -rf src \\;`;
        expect(denyRm.evaluate('bash', line).action, line).toBe('allow');
      }),
      { numRuns: 100 },
    );
  });
});

// find reads its whole expression before it runs anything: past a quoted word that may end the
// command, a fixed word that is none of its primaries (`-e`, `a`, `{}`) makes it refuse the line.
const REFUSED = [
  'find src -type f -exec grep -e "$a" -e "$b" {} +',
  'find src -exec grep "$a" -e "$b" {} +',
  'find src -exec grep "$a" {} -exec rm -rf src \\;',
  'find src -exec true "$x" a -exec rm -rf src \\;',
];

describe('a word find refuses after the expansion', () => {
  it('bash changes nothing with each, whatever the expansions hold', () => {
    for (const line of REFUSED) {
      for (const value of [';', '+', '-delete', '(', '!']) {
        const full = `a='${value}'; b=-delete; x='${value}'; ${line}`;
        expect(sandbox(full).changed, full).toBe(false);
      }
    }
  }, 60_000);

  itAllowsEach(REFUSED);

  // Yet a later quoted word may still end it where find reads on (`"$b"` before `-o`), and
  // `"$@"` may be several words, the refused one then a value (`; -name`, then `-e`).
  const ENDED = [
    "a=x; b=';'; find src -exec grep \"$a\" -e \"$b\" -o -delete -o -exec true {} \\;",
    "set -- ';' -name; find src -exec true \"$@\" -e -o -exec rm -rf src \\;",
  ];
  it('bash changes src/a with each of these (the attacks are real)', () => {
    for (const line of ENDED) expect(sandbox(line).changed, line).toBe(true);
  }, 60_000);
  itDeniesEach(ENDED);
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
