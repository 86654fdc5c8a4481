import { describe, expect, it } from 'vitest';
import { bashSandbox, denySrc, itAllowsEach, itDeniesEach } from './support/bash-sandbox.js';

// GNU sed and find as BSD systems and Homebrew install them (`gsed`, `gfind`) are read as sed
// and find: `gsed -i` writes, its `e` command runs commands, `gfind -delete` removes and
// `gfind -exec` runs a command. (awk's other names, `gawk`, `mawk`, `nawk`, were read already.)

const sandbox = bashSandbox('rx-gnu-names-');

/** The line run with `gsed` and `gfind` being this system's GNU sed and find. */
const named = (line: string): string =>
  `mkdir bin && ln -s "$(command -v sed)" bin/gsed && ln -s "$(command -v find)" bin/gfind && PATH="$PWD/bin:$PATH" && ${line}`;

/** sed's writes, which a bash rule on `rm *` leaves alone, as it does `sed -i`'s. */
const SED_WRITES = ['gsed -i s/a/b/ src/a', 'gsed -ie s/a/b/ src/a', "gsed -n 'w src/a' cmds", '/usr/local/bin/gsed -i s/a/b/ src/a'];
const FIND_REMOVES = ['gfind src -delete', 'gfind src -exec rm {} \\;'];
const RUNS = ['gsed e cmds', "gsed -n '1e touch ran' src/a", "gsed 's/ran/ran/e' cmds"];

describe('GNU sed and find under their g names', () => {
  it('bash changes src/a with each write (the attacks are real)', () => {
    for (const line of [...SED_WRITES.slice(0, -1), ...FIND_REMOVES]) expect(sandbox(named(line)).changed, line).toBe(true);
  }, 60_000);

  it('bash runs a command with each e (the attacks are real)', () => {
    for (const line of RUNS) expect(sandbox(named(line)).ran, line).toBe(true);
  }, 60_000);

  it.each(SED_WRITES)('%j is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });
  itDeniesEach(FIND_REMOVES);
  itDeniesEach(RUNS, 'a sed script running commands');
});

describe('ordinary gsed and gfind lines stay allowed', () => {
  itAllowsEach(["gsed -n 's/a/b/p' f", "gfind . -name '*.ts' -exec grep -l foo {} +", 'gawk \'{print $1}\' f', 'mawk -F: \'{print $2}\' f']);
});
