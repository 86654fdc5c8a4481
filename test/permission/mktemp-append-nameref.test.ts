import { describe, expect, it } from 'vitest';
import { bashSandbox, denySrc } from './support/bash-sandbox.js';

const sandbox = bashSandbox('rx-mktemp-append-');
// Whether mktemp made a name in src (anything but `a` there), in a shell whose TMPDIR is set by `pre` first.
const made = (pre: string, line: string): string => `${pre}; (${line}); ls -A src | grep -qvx a && rm -rf src`;

// `TMPDIR+=x` appends to a value the line does not show: unset it is `x`, and `/tmp/..` leads back into the workspace.
const APPENDS: [string, string][] = [
  ['unset TMPDIR', 'TMPDIR+=src mktemp'],
  ['export TMPDIR=/tmp', 'TMPDIR+=/../$PWD/src mktemp'],
  ['export TMPDIR=/tmp', 'TMPDIR+=/../$PWD/src mktemp -d'],
  ['unset TMPDIR', 'TMPDIR+=src mktemp -t x.XXXX'],
];
// A name reference to TMPDIR: assigning it sets mktemp's folder under another name, in any order.
const REFERENCES = [
  'declare -n r=TMPDIR; export r=src; mktemp',
  'typeset -n r=TMPDIR; export r=src; mktemp',
  'f(){ local -n r=TMPDIR; export r=src; mktemp; }; f',
  'export TMPDIR; declare -n r=TMPDIR; r=src; mktemp',
  'declare -n r=TMPDIR; r=src; export TMPDIR; mktemp',
  'declare -n r=TMPDIR; export TMPDIR=/tmp; r=src; mktemp',
  'declare -n r; r=TMPDIR; export r=src; mktemp',
];

describe('mktemp with TMPDIR+= in front of it', () => {
  it.each(APPENDS)('%s; %s really makes a name in src', (pre, line) => {
    expect(sandbox(made(pre, line)).changed).toBe(true);
  });
  it.each(APPENDS)('%s; %s is denied under deny write src/**, as any path', (_, line) => {
    const { action, reason } = denySrc.evaluate('bash', line);
    expect(action).toBe('deny');
    expect(reason).toContain('may be any path');
  });
  it('a plain setting in front stays judged at its folder', () => {
    expect(denySrc.evaluate('bash', 'TMPDIR=/tmp/x mktemp').action).toBe('allow');
    expect(denySrc.evaluate('bash', 'TMPDIR=src mktemp').action).toBe('deny');
    expect(denySrc.evaluate('bash', 'mktemp -d').action).toBe('allow');
  });
});

describe('mktemp after a name reference to TMPDIR', () => {
  it.each(REFERENCES)('%s really makes a name in src', (line) => {
    expect(sandbox(made('unset TMPDIR', line)).changed).toBe(true);
  });
  it.each(REFERENCES)('%s is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });
  it('a reference to another variable, or one without mktemp after it, writes nothing there', () => {
    expect(sandbox(made('unset TMPDIR', 'declare -n r=OTHER; export r=src; mktemp')).changed).toBe(false);
    expect(denySrc.evaluate('bash', 'declare -n r=OTHER; export r=src; mktemp').action).toBe('allow');
    expect(denySrc.evaluate('bash', 'declare -n r=TMPDIR; r=src').action).toBe('allow');
    expect(denySrc.evaluate('bash', 'mktemp; declare -n r=TMPDIR; r=src').action).toBe('allow');
  });
});
