import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// A word only known when the line runs (`$x`, a glob, what xargs appends) where find, awk or
// sed read an option, their program or their script may be one that runs a command or writes
// a file: `x=-delete; find src $x` deletes src. Such a word is judged as an unknown option
// there, as git's and tar's are; a value of their own options (`find . -name "$x"`, `awk -F"$s"`)
// and an operand after `--` stay allowed.

const denyRm = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });
const denySrc = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });

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
  'find . -name "$x"', 'find . -type f -newer "$ref" -maxdepth $n', 'find . -exec grep -l "$x" {} +', 'find src/*.ts -newer x',
  'awk \'{print $1}\' "$f"', "awk '{print $1, $2}' f", "sed 's/[a-z]/x/g' f", 'awk -F"$sep" \'{print $1}\' f', 'awk -v n="$n" \'{print $n}\' f',
  "sed -n 's/$/x/' f", 'sed -n p -- "$f"', 'sed -n 1,5p f',
];

const dir = mkdtempSync(join(tmpdir(), 'rx-unknown-option-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `line` in bash after `setting`, in a fresh sandbox holding `src/a` (text `a`) and `cmds` (`touch ran`): whether it ran a command or changed src/a. */
function runs(setting: string, line: string): boolean {
  const box = mkdtempSync(join(dir, 'box-'));
  mkdirSync(join(box, 'src'));
  writeFileSync(join(box, 'src/a'), 'a\n');
  writeFileSync(join(box, 'cmds'), 'touch ran\n');
  spawnSync('bash', ['-c', `${setting}; ${line}`], { cwd: box, encoding: 'utf8', timeout: 20_000, input: '' });
  const changed = !existsSync(join(box, 'src/a')) || readFileSync(join(box, 'src/a'), 'utf8') !== 'a\n';
  return existsSync(join(box, 'ran')) || changed;
}

describe('a word only known when it runs, where find, awk or sed read an option or program', () => {
  it('bash runs a command or changes src/a with each value (the attacks are real)', () => {
    for (const [line, setting] of ATTACKS) expect(runs(setting, line), `${setting}; ${line}`).toBe(true);
  }, 60_000);

  it.each(ATTACKS.map(([line]) => line))('%j is denied under deny rm *', (line) => {
    expect(denyRm.evaluate('bash', line).reason).toContain('a word only known when it runs');
  });

  it.each(ATTACKS.map(([line]) => line))('%j is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });
});

describe('values of their options and operands after -- stay allowed', () => {
  it.each(VALUES)('%j is allowed under deny rm * and deny write src/**', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('allow');
    expect(denySrc.evaluate('bash', line).action).toBe('allow');
  });
});
