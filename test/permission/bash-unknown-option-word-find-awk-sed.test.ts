import { describe, expect, it } from 'vitest';
import { bashSandbox, itAllowsEach, itDeniesEach } from './support/bash-sandbox.js';

// A word only known when the line runs (`$x`, a glob, what xargs appends) where find, awk or
// sed read an option, their program or their script may be one that runs a command or writes
// a file: `x=-delete; find src $x` deletes src. Such a word is judged as an unknown option
// there, as git's and tar's are; a value of their own options (`find . -name "$x"`, `awk -F"$s"`)
// and an operand after `--` stay allowed.

/** Lines the checker judges, and a value for their variable that makes bash run a command (leaving `ran`) or change `src/a`. */
const ATTACKS: readonly (readonly [string, string])[] = [
  ['find src $x', 'x=-delete'],
  ['find "$d" -name a', 'd=-delete'],
  ['find . $x', "x='-exec touch ran ;'"],
  ['awk "$x"', 'x=\'BEGIN{system("touch ran")}\''],
  ['awk -- "$p" cmds', 'p=\'{system($0)}\''],
  ['sed "$x" cmds', "x='1e touch ran'"],
  ['sed $x s/a/b/ src/a', 'x=-i'],
  ['sed -n 1p "$f"', "f='-ew src/a'"],
  ['sed -e "$s" cmds', "s='1e touch ran'"],
  ['sed "s/a/$r/" cmds', "r='a/;1e touch ran;s/x/y'"],
];

/** Lines whose words only known when they run are values or operands: nothing they hold becomes an option. */
const VALUES = [
  'find . -name "$x"', 'find . -type f -newer "$ref" -maxdepth "$n"', 'find . -exec grep -l "$x" {} +', 'find src/*.ts -newer x',
  'awk \'{print $1}\' "$f"', "awk '{print $1, $2}' f", "sed 's/[a-z]/x/g' f", 'awk -F"$sep" \'{print $1}\' f', 'awk -v n="$n" \'{print $n}\' f',
  "sed -n 's/$/x/' f", 'sed -n p -- "$f"', 'sed -n 1,5p f',
];

const sandbox = bashSandbox('rx-unknown-option-');

/** Runs `line` in bash after `setting`: whether it ran a command or changed src/a. */
function runs(setting: string, line: string): boolean {
  const { ran, changed } = sandbox(`${setting}; ${line}`);
  return ran || changed;
}

describe('a word only known when it runs, where find, awk or sed read an option or program', () => {
  it('bash runs a command or changes src/a with each value (the attacks are real)', () => {
    for (const [line, setting] of ATTACKS) expect(runs(setting, line), `${setting}; ${line}`).toBe(true);
  }, 60_000);

  itDeniesEach(ATTACKS.map(([line]) => line), 'a word only known when it runs');
});

describe('values of their options and operands after -- stay allowed', () => {
  itAllowsEach(VALUES);
});
