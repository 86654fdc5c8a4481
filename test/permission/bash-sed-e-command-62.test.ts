import { describe, expect, it } from 'vitest';
import { bashSandbox, itAllowsEach, itDeniesEach } from './support/bash-sandbox.js';

// GNU sed's `e` command (`e` runs each line read as a command, `1e cmd` runs cmd) and the `e`
// flag of `s` run commands. The script is read command by command wherever sed takes it (its
// first operand, `-e`, a cluster `-ne`, `--expression=`, a `-e` after the files), so a script
// holding one makes the line unreadable; an `e` in text, a regular expression or `y` is none.

const sandbox = bashSandbox('rx-sed-e-');

/** Lines that run `touch ran` (the text of the file `cmds`) through sed. */
const ATTACKS = ['sed -ee cmds', 'sed -n p cmds -ee', 'sed -nee cmds', 'sed --expression=e cmds', "sed 's/ran/ran/ge' cmds", "sed -n '1e touch ran' src/a"];

describe('a sed script with an e command or flag', () => {
  it('bash runs a command with each (the attacks are real)', () => {
    for (const line of ATTACKS) expect(sandbox(line).ran, line).toBe(true);
  }, 60_000);

  itDeniesEach(ATTACKS, 'a sed script running commands');
});

describe('an e that is no command stays readable', () => {
  itAllowsEach(["sed 'a hello e' f", "sed -n '/e/p' f", "sed -e 's/e/E/g' f", "sed 'y/e/E/' f", 'sed -n p -e 1d f']);
});
