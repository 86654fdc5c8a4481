import { describe, expect, it } from 'vitest';
import { bashSandbox, denyRm, denySrc } from './support/bash-sandbox.js';

// What xargs reads and appends to its command is any text, an option too: `echo -delete |
// xargs find .` deletes. It is judged as a word only known when the line runs (as `$x` is),
// so the programs whose options run commands or write files are judged as with an unknown
// option there; programs whose options do neither keep being allowed.

const sandbox = bashSandbox('rx-xargs-appended-');

/** Lines, and an input that makes each run a command (leaving `ran`) or change `src/a`. */
const ATTACKS: readonly (readonly [string, string])[] = [
  ['xargs find src', '-delete'],
  ['xargs find .', '-exec touch ran ;'],
  ['xargs awk', "'BEGIN{system(\"touch ran\")}'"],
  ['xargs sed -n', '-e e cmds'],
  ['xargs sed s/a/b/', '-i src/a'],
  ['xargs -I{} find src {}', '-delete'],
  ['xargs git', '-c alias.x=!touch\\ ran x'],
];

describe('what xargs appends may be an option', () => {
  it('bash runs a command or changes src/a with each input (the attacks are real)', () => {
    for (const [line, input] of ATTACKS) {
      const { ran, changed } = sandbox(line, { input: `${input}\n` });
      expect(ran || changed, line).toBe(true);
    }
  }, 60_000);

  it.each(ATTACKS.map(([line]) => line))('%j is denied under deny rm *', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('deny');
  });

  it.each(['xargs find src', 'xargs sed s/a/b/', 'xargs awk', 'xargs sed -n p'])('%j is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  it('git and tar read what xargs appends as an unknown option, as they read "$x"', () => {
    expect(denyRm.evaluate('bash', 'xargs git log').reason).toContain('a word only known when it runs ("{}")');
    expect(denyRm.evaluate('bash', 'xargs tar -cf a.tar').reason).toContain('a word only known when it runs ("{}")');
  });
});

describe('programs whose options run nothing stay allowed', () => {
  it.each(['xargs grep foo', 'xargs mv -t d/', 'find . -name "*.log" | xargs grep -l x', 'xargs -I{} cp {} out/', 'xargs wc -l'])(
    '%j is allowed under deny rm *',
    (line) => {
      expect(denyRm.evaluate('bash', line).action).toBe('allow');
    },
  );

  it('xargs rm -f stays denied, for its rm', () => {
    expect(denyRm.evaluate('bash', 'xargs rm -f').reason).toContain('rm *');
  });
});
