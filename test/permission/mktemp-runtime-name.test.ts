import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';
import { bashSandbox, denyRm, denySrc } from './support/bash-sandbox.js';

const sandbox = bashSandbox('rx-mktemp-runtime-');
// Whether mktemp made a name in src (anything but `a` there), with TMPDIR unset first.
const made = (line: string): boolean => sandbox(`unset TMPDIR; (${line}); ls -A src | grep -qvx a && rm -rf src`).changed;
/** Bash allowed, no write rule: the write checks are not in play. */
const noWriteRule = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }] });

// A variable whose name is only known when the line runs may be TMPDIR: mktemp then writes where its value says.
const PROVED = [
  'v=TMPDIR; export $v=src; mktemp',
  'v=TMPDIR; export TMPDIR; read $v <<< src; mktemp',
  'v=TMPDIR; export TMPDIR; printf -v "$v" src; mktemp',
  'v=TMPDIR; declare -x $v=src; mktemp',
  'v=TMPDIR=src; export $v; mktemp',
  'v=TMPDIR; export TMPDIR; : ${!v:=src}; mktemp',
  'export TMPDIR; read TMP{DIR,X} <<< src; mktemp',
  'v=TMPDIR; env $v=src mktemp',
];
const DENIED = [
  ...PROVED,
  // An array is not exported, yet where TMPDIR is one mktemp's folder is judged as any path all the same.
  'v=TMPDIR; export TMPDIR; mapfile -t $v <<< src; mktemp',
  'v=TMPDIR; typeset -x "$v"=src; mktemp',
  'f(){ local -x $v=src; mktemp; }; v=TMPDIR; f',
  'v=TMPDIR; export TMPDIR; declare ${v}=src; mktemp',
  'v=TMPDIR; export TMPDIR; eval $v=src; mktemp',
  'export TMPDIR; printf -v {TMPDIR,src}; mktemp',
];

describe('mktemp after a setting whose name is only known at run time', () => {
  it.each(PROVED)('%s really makes a name in src', (line) => {
    expect(made(line)).toBe(true);
  });
  it.each(DENIED)('%s is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });
  it('such a setting of another variable writes nothing in src, and is allowed without a write rule', () => {
    expect(made('v=X; export $v=src; mktemp')).toBe(false);
    expect(noWriteRule.evaluate('bash', 'v=X; export $v=1; mktemp').action).toBe('allow');
  });
  it('a setting with a name the line shows is judged at its value', () => {
    expect(denySrc.evaluate('bash', 'v=TMPDIR; export X=$v; mktemp').action).toBe('allow');
    expect(denySrc.evaluate('bash', 'export TMPDIR=/tmp/x; read -r x <<< src; mktemp').action).toBe('allow');
    expect(denySrc.evaluate('bash', 'v=TMPDIR; mktemp; export $v=src').action).toBe('allow');
  });
});

describe('a name bash makes from a brace or an indirect expansion', () => {
  // `read PAT{H,X} <<< ./bin` sets PATH (and PATHX): the bash rules cannot tell which name it is.
  it.each(['read PAT{H,X} <<< ./bin; ls', 'printf -v {PATH,./bin}; ls', 'v=BASH_ENV; : ${!v:=./s}; bash -c true'])('%s is flagged under deny rm *', (line) => {
    const { action, reason } = denyRm.evaluate('bash', line);
    expect(action).toBe('deny');
    expect(reason).toContain('only known when the line runs');
  });
});
