import { describe, expect, it } from 'vitest';
import { bashSandbox, denyRm, itAllowsEach, itDeniesEach } from './support/bash-sandbox.js';

// A value of find's, awk's or sed's own options stays readable only quoted: unquoted, an
// expansion splits into more words and a glob matches several names, which the program reads
// as options after the value (`x='a -delete'; find src -name $x` deletes). A glob among their
// options may match a planted file named as an option (`-n*` matching `-ni` makes sed edit in place).

const sandbox = bashSandbox('rx-split-values-');

/** Lines, with what makes bash run a command (leaving `ran`) or change `src/a` with each: a setting before it, the input, files to plant. */
const ATTACKS: readonly (readonly [string, { setting?: string; input?: string; plant?: string[] }])[] = [
  ['find src -name $x', { setting: "x='a -delete'" }],
  ['find src -maxdepth $n', { setting: "n='1 -delete'" }],
  ["find src -exec echo $x ';'", { setting: "x='a ; -delete -exec echo'" }],
  ['xargs find src -name', { input: 'a -delete\n' }],
  ['awk -v $y', { setting: 'y=\'x=1 BEGIN{system("touch"FS"ran")}\'' }],
  ['awk -vn=$y', { setting: 'y=\'x=1 BEGIN{system("touch"FS"ran")}\'' }],
  ['awk -F $y', { setting: 'y=\': BEGIN{system("touch\\040ran")}\'' }],
  ['awk -F$y', { setting: 'y=\': BEGIN{system("touch\\040ran")}\'' }],
  ['sed -l $n s/a/b/ src/a', { setting: "n='5 -i'" }],
  ['sed -l$n s/a/b/ src/a', { setting: "n='5 -i'" }],
  ['sed --line-length $n s/a/b/ src/a', { setting: "n='5 -i'" }],
  ['sed -n* s/a/b/ src/a', { plant: ['-ni'] }],
  ['sed -n[i] s/a/b/ src/a', { plant: ['-ni'] }],
  ['sed s/a/b/ -n? src/a', { plant: ['-ni'] }],
  ['sed --in* s/a/b/ src/a', { plant: ['--in-place'] }],
  ["echo 'BEGIN{system(\"touch ran\")}' > p; awk -W* p", { plant: ['-Wexec'] }],
];

/** Quoted values, globs that cannot start an option, and a placeholder xargs fills with one word: nothing they hold becomes an option. */
const VALUES = [
  'find src -name "$x"', 'find src -maxdepth "$n" -name a', "find src -exec echo \"$x\" ';'", 'find . -name src/*.ts',
  'awk -v "$y" 1 f', 'awk -vn="$y" 1 f', 'awk -F "$y" 1 f', 'sed -l "$n" s/a/b/ f', 'sed -l"$n" s/a/b/ f', 'xargs -I{} find . -name {}',
];

describe('an unquoted value or a glob where find, awk or sed read options', () => {
  it('bash runs a command or changes src/a with each (the attacks are real)', () => {
    for (const [line, { setting, input, plant }] of ATTACKS) {
      const { ran, changed } = sandbox(setting === undefined ? line : `${setting}; ${line}`, { ...(input === undefined ? {} : { input }), plant: plant ?? [] });
      expect(ran || changed, line).toBe(true);
    }
  }, 60_000);

  itDeniesEach(ATTACKS.map(([line]) => line), 'a word only known when it runs');

  it('an unquoted glob as a value may be several words, any of them an option: find . -name *.ts is read so', () => {
    expect(denyRm.evaluate('bash', 'find . -name *.ts').reason).toContain('a word only known when it runs ("*.ts")');
  });
});

describe('quoted values stay readable', () => {
  it('bash reads each quoted value as one word: the attack values do nothing there', () => {
    expect(sandbox(`x='a -delete'; find src -name "$x"`)).toEqual({ ran: false, changed: false });
    expect(sandbox(`n='5 -i'; sed -l "$n" s/a/b/ src/a`)).toEqual({ ran: false, changed: false });
  });

  itAllowsEach(VALUES);
});
