import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { commandParts } from '../../src/permission/bash/command-parts.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import { bashSandbox, denySrc, itAllowsEach, itDeniesEach } from './support/bash-sandbox.js';
import { gitConfigSandbox } from './support/git-config-sandbox.js';

const sandbox = bashSandbox('rx-leftovers-69-');

// uniq's second operand is its output file. A word only known when it runs moves which operand
// that is: it may split into both (`$x`, a glob, what xargs reads), be an option that takes no
// value (`-c`) or one that takes the next word (`-f 1`); GNU's `--group` and `--all-repeated` take
// a value only after `=`. Each line below overwrote src/a in real bash (see the first test).
describe("uniq's output operand moved at run time", () => {
  const WRITES = [
    'o=-c; uniq $o /dev/null src/a',
    'o=-c; uniq "$o" /dev/null src/a',
    'o=-f; uniq $o 1 /dev/null src/a',
    'n="1 /dev/null"; uniq -f $n src/a',
    'x="/dev/null src/a"; uniq $x',
    'set -- /dev/null src/a; uniq "$@"',
    'echo /dev/null src/a | xargs uniq',
    'uniq --group /dev/null src/a',
    'uniq --all-repeated /dev/null src/a',
    'uniq --all /dev/null src/a',
  ];

  it('bash overwrites src/a with each (the attacks are real)', () => {
    for (const line of WRITES) expect(sandbox(line).changed, line).toBe(true);
    // A glob of two names is both operands: `src/0 src/a`.
    expect(sandbox('uniq src/*', { plant: ['src/0'] }).changed).toBe(true);
  }, 60_000);

  it.each([...WRITES, 'uniq src/*'])('%j is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  // Denied before this stop too, kept so: a run-time word in the output's place, a shown output.
  it.each(['o=-o; uniq /dev/null $o src/a', 'uniq in src/a', 'uniq $x src/a'])('%j stays denied', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  // One operand is read only; a quoted word is one word, a value or one operand.
  const READS = [
    'uniq src/a', 'uniq src/a out', 'uniq -c src/a', 'uniq -f 1 src/a', 'f=src/a; uniq "$f"', 'f=src/a; uniq -c "$f"',
    'n=1; uniq -w "$n" src/a', 'sort src/a | uniq', 'uniq < src/a', 'uniq -- src/a', 'f=src/a; uniq "$f" out',
    'uniq src/a /dev/null', 'uniq --group=append src/a', 'uniq --all-repeated=prepend src/a out', 'uniq -D src/a',
  ];

  it('bash leaves src/a as it was with each', () => {
    for (const line of READS) expect(sandbox(line).changed, line).toBe(false);
  }, 60_000);

  itAllowsEach(READS);
});

// `git config --global` writes `$HOME/.gitconfig`, or where that is missing and the file is there,
// `$XDG_CONFIG_HOME/git/config` (`$HOME/.config/git/config` when XDG_CONFIG_HOME is unset).
describe("git's global configuration under XDG_CONFIG_HOME", () => {
  const gitRun = gitConfigSandbox('rx-leftovers-69-git-');
  const WRITES = [
    'XDG_CONFIG_HOME=src git config --global k.v x',
    'export XDG_CONFIG_HOME=src; git config --global k.v x',
    'env XDG_CONFIG_HOME=src git config --global k.v x',
    'export XDG_CONFIG_HOME; read XDG_CONFIG_HOME <<< src; git config --global k.v x',
    // Known only at run time, the folder may be anywhere.
    'd=src; XDG_CONFIG_HOME=$d git config --global k.v x',
    'export XDG_CONFIG_HOME=$(pwd)/src; git config --global k.v x',
    // A name only known at run time may be either variable.
    'v=XDG_CONFIG_HOME; export $v=src; git config --global k.v x',
    'v=HOME; export $v=src; git config --global k.v x',
  ];

  it('bash writes git/config under src with each (the attacks are real)', () => {
    for (const line of WRITES) expect(gitRun(line), line).toBe(true);
  }, 60_000);

  it.each(WRITES)('%j is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  const HOME_XDG = ['HOME=src git config --global k.v x', 'export HOME=src; git config --global k.v x'];
  const denyConfig = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/.config/**' }] });

  it('a HOME without .gitconfig gives its .config/git/config, which a rule on that folder denies', () => {
    for (const line of HOME_XDG) {
      expect(gitRun(line), line).toBe(true);
      expect(denyConfig.evaluate('bash', line).reason, line).toContain('writes "src/.config/git/config"');
    }
  }, 60_000);

  // Denied before this stop too, kept so: a HOME known only at run time.
  it.each(['d=src; HOME=$d git config --global k.v x', 'export HOME=$(pwd)/src; git config --global k.v x'])('%j stays denied', (line) => {
    expect(gitRun(line)).toBe(true);
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  const HARMLESS = [
    'git config --global k.v x',
    'XDG_CONFIG_HOME=src git config --global --get k.v',
    'XDG_CONFIG_HOME=src git config --global --list',
    'XDG_CONFIG_HOME=src git config --global -l',
    'XDG_CONFIG_HOME=cfg git config --global k.v x',
    'export XDG_CONFIG_HOME=cfg; git config --global k.v x',
    'git config --global k.v x; export XDG_CONFIG_HOME=src',
    'XDG_CONFIG_HOME=src git --version',
    'HOME=h XDG_CONFIG_HOME=cfg git config --global k.v x',
    'XDG_CONFIG_HOME=src git config k.v x',
  ];

  it('bash writes nothing under src with each', () => {
    for (const line of HARMLESS) expect(gitRun(line), line).toBe(false);
  }, 60_000);

  it.each(HARMLESS)('%j is allowed under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('allow');
  });
});

// The text rules match keeps a braced expansion as written: the scanner's `\#` (which keeps
// shell-quote from reading a comment) is the line's `#`, and `${10}` is the tenth parameter,
// where bash reads `$10` as `${1}0`.
describe('the text rules match keeps ${#x} and ${10} as written', () => {
  it('renders them as the line wrote them', () => {
    expect(commandParts('echo ${#x} ${10} $10 ${1}0 ${x#a} ${#} ${1} ${x}').commands).toEqual(['echo ${#x} ${10} $10 ${1}0 ${x#a} $# $1 $x']);
  });

  it('a rule written with them matches, and the reason quotes the command so', () => {
    const deny = (pattern: string): PermissionPolicy => new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern }] });
    expect(deny('rm *').evaluate('bash', 'x=1; rm ${#x}').reason).toContain('(for "rm ${#x}")');
    expect(deny('rm *').evaluate('bash', 'x=1; rm ${10}x').reason).toContain('(for "rm ${10}x")');
    expect(deny('echo ${#x} *').evaluate('bash', 'x=1; echo ${#x} ok').action).toBe('deny');
  });

  it('bash reads ${10} and $10 apart (the rendering matters)', () => {
    const out = (line: string): string => spawnSync('bash', ['-c', line, 'bash', ...'abcdefghij'], { encoding: 'utf8' }).stdout;
    expect(out('echo ${10} $10')).toBe('j a0\n');
  });
});
