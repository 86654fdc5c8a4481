import { describe, expect, it } from 'vitest';
import { commandParts } from '../../src/permission/bash/command-parts.js';
import { PermissionPolicy } from '../../src/permission/index.js';
import { bashSandbox, denyRm, denySrc } from './support/bash-sandbox.js';

const sandbox = bashSandbox('rx-runtime-options-68-');
// Whether the line made a name in src (anything but `a` there), run with TMPDIR unset first.
const made = (line: string): boolean => sandbox(`unset TMPDIR; (${line}); ls -A src | grep -qvx a && rm -rf src`).changed;
/** Bash allowed, no write rule: the write checks are not in play. */
const noWriteRule = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }] });

// A declarer's option letters only known when the line runs: `o=n` makes a reference to TMPDIR,
// and unquoted they may split into an assignment of it (`o='x TMPDIR=src'`).
const OPTIONS = [
  'o=n; declare "-$o" r=TMPDIR; export r=src; mktemp',
  'o=n; export TMPDIR; declare "-$o" r=TMPDIR; r=src; mktemp',
  'o=n; typeset -$o r=TMPDIR; export r=src; mktemp',
  'o=n; f(){ local "-$o" r=TMPDIR; export r=src; mktemp; }; f',
  'o=n; declare "-$o" r; r=TMPDIR; export r=src; mktemp',
  'o=n; export TMPDIR; declare -x"$o" r=TMPDIR; r=src; mktemp',
  "o='x TMPDIR=src'; declare -$o r=OTHER; mktemp",
  "o='x TMPDIR=src'; f(){ local -$o; mktemp; }; f",
];
// A name bash makes from a brace or a glob (see `runTimeName`), given to a builtin that sets it.
const EXPANDED = ['ln -s src "?"; export TMPDIR; getopts s TMP{DIR,X}; mktemp'];

describe('mktemp after a declarer whose options are only known when the line runs', () => {
  it.each(OPTIONS)('%s really makes a name in src', (line) => {
    expect(made(line)).toBe(true);
  });
  it.each(OPTIONS)('%s is denied under deny write src/**, its folder any path', (line) => {
    const { action, reason } = denySrc.evaluate('bash', line);
    expect(action).toBe('deny');
    expect(reason).toContain('"$TMPDIR/tmp.*"');
  });
  it('without a write rule in play such a line is judged by the bash rules alone, as before', () => {
    for (const line of OPTIONS) expect(noWriteRule.evaluate('bash', line).action, line).toBe('allow');
    for (const line of OPTIONS) expect(denyRm.evaluate('bash', line).reason, line).toContain('only known when the line runs ("-');
  });
  it('quoted options referring to another variable make no name in src, and stay allowed', () => {
    const line = 'o=n; declare "-$o" r=OTHER; export r=src; mktemp';
    expect(made(line)).toBe(false);
    expect(denySrc.evaluate('bash', line).action).toBe('allow');
  });
});

describe('a brace or glob name is a run-time name for every builtin that sets one', () => {
  it.each(EXPANDED)('%s really makes a name in src', (line) => {
    expect(made(line)).toBe(true);
  });
  // The `?` link aside (its own write is judged too): the same settings without it.
  it.each([...EXPANDED, 'export TMPDIR; getopts s TMP{DIR,X}; mktemp', 'export TMPDIR; getopts s TMPD*; mktemp', 'export TMPDIR; wait -p TMP{DIR,X} $!; mktemp'])('%s is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });
  it.each(['getopts o PAT{H,X}; ls', 'wait -p PAT? $!; ls'])('%s is flagged by the bash rules, as read PAT{H,X} is', (line) => {
    const { action, reason } = denyRm.evaluate('bash', line);
    expect(action).toBe('deny');
    expect(reason).toContain('a variable whose name is only known when the line runs');
  });
  it('shown names stay judged as before', () => {
    expect(denySrc.evaluate('bash', 'getopts o opt; mktemp').action).toBe('allow');
    expect(denyRm.evaluate('bash', 'getopts o opt; wait -p id $!; ls').action).toBe('allow');
  });
});

describe('the text rules match keeps the braces of an expansion', () => {
  const denyBraced = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: '${x}m *' }] });
  const allowEcho = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: 'echo $HOME_DIR' }] });

  it('a rule written with braces matches the command as written, and the reason quotes it so', () => {
    const { action, reason } = denyBraced.evaluate('bash', 'x=r; ${x}m src/a');
    expect(action).toBe('deny');
    expect(reason).toContain('pattern: "${x}m *"} (for "${x}m src/a")');
  });
  it('bash reads ${HOME}_DIR as HOME and text, not the variable HOME_DIR', () => {
    expect(sandbox('HOME_DIR=a; HOME=b; echo ${HOME}_DIR > src/a').changed).toBe(true);
    expect(sandbox('HOME_DIR=a; HOME=b; echo $HOME_DIR > src/a').changed).toBe(false);
  });
  it('so a rule allowing $HOME_DIR does not allow ${HOME}_DIR', () => {
    expect(allowEcho.evaluate('bash', 'echo $HOME_DIR').action).toBe('allow');
    expect(allowEcho.evaluate('bash', 'echo ${HOME}_DIR').action).toBe('ask');
  });
  it('braces that change nothing, a lone $ and positional parameters read as before', () => {
    expect(allowEcho.evaluate('bash', 'echo ${HOME_DIR}').action).toBe('allow');
    // bash reads `$10` as `${1}0`; `$` before a blank or at the end is text.
    expect(commandParts('echo $10 $1x ${x}m "$" a$').commands).toEqual(['echo $10 $1x ${x}m $ a$']);
  });
});
