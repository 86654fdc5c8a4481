import { describe, expect, it } from 'vitest';
import { bashSandbox, denyRm, itDeniesEach } from './support/bash-sandbox.js';

// Where find or sed read an option, an unquoted brace expansion, glob or class anywhere in a word
// (`-{delete,print}`, `-d*` with a file named -delete) and an unquoted command substitution
// (`$(echo -delete)`, backquotes) may be one. Quoted program text stays text (`awk '{print $1, $2}'`),
// and one quoted word of a variable and a fixed `/` (`"$HOME/x"`) is no primary of find.

const sandbox = bashSandbox('rx-find-expansions-');

/** Whether `line`, run in bash in a sandbox holding `src/a` (and a file `-delete` when `planted`), removes or changes src/a. */
function damages(line: string, planted: boolean): boolean {
  return sandbox(line, { plant: planted ? ['-delete'] : [] }).changed;
}

const ATTACKS: readonly (readonly [string, boolean])[] = [
  ['find src -{delete,print}', false],
  ['touch ./-delete; find src -*', false],
  ['find src -[d]elete', true],
  ['find src -d*', true],
  ['find src -name a $(printf -- -delete)', false],
  ['find src `echo -delete`', false],
  ['sed s/a/b/ $(echo -i) src/a', false],
];

describe('expansions where find and sed read an option', () => {
  it('bash removes or changes src/a with each (the attacks are real)', () => {
    for (const [line, planted] of ATTACKS) expect(damages(line, planted), line).toBe(true);
  }, 60_000);

  itDeniesEach(ATTACKS.map(([line]) => line));

  it.each(["awk '{print $1, $2}' f", "sed 's/[a-z]//' f", "sed 's/{a,b}//' f", "find . -name '[ab]*.ts'", 'find src/{a,b} -name x'])(
    '%j (quoted program text, a brace in a start point) is allowed under deny rm *',
    (line) => {
      expect(denyRm.evaluate('bash', line).action).toBe('allow');
    },
  );
});

describe('a quoted variable with a fixed / is no primary of find', () => {
  it('bash reads "$x/y" with x=-delete as an unknown predicate and removes nothing', () => {
    expect(damages('x=-delete; find "$x/y"; find src "$x/y"', false)).toBe(false);
  });

  it.each(['find "$HOME/x" -name a', 'find "${HOME}/x" -name a'])('%j is allowed under deny rm *', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('allow');
  });

  it.each(['find "$d" -name a', 'find $HOME/x -name a', 'find "${x/a/b}" -name a', 'find "$HOME/$@" -name a', 'find "$(echo -delete)/x"'])(
    '%j is still denied under deny rm *',
    (line) => {
      expect(denyRm.evaluate('bash', line).action).toBe('deny');
    },
  );
});
