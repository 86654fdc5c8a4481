import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// Arithmetic assigns variables: `(( PATH = 1 ))` makes `ls` run `./1/ls`. So does arithmetic
// on a name held in a variable (`v=PATH; (( $v = 1 ))`), and arithmetic that evaluates a value
// written on the line (`x='PATH=1'; ((x))`, `[[ PATH=1 -eq 1 ]]`). Each such line is unreadable
// under a bash deny rule.

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });

/** Lines that set PATH to 1 in bash, then run `ls`. */
const SETTERS = [
  '(( PATH = 1 )); ls',
  ': $[ PATH = 1 ]; ls',
  'v=PATH; (( $v = 1 )); ls',
  'v=PATH; : $(( $v = 1 )); ls',
  'v=PATH; : "$(( $v = 1 ))"; ls',
  ': "$((PATH=1))"; ls',
  'v=PATH; : $[ $v = 1 ]; ls',
  'v=PATH; a[$v=1]=2; ls',
  "x='PATH=1'; ((x)); ls",
  "x='PATH=1'; (( x )); ls",
  'x=PATH=1; : $((x)); ls',
  "x='PATH=1'; let x; ls",
  "x='PATH=1'; [[ x -eq 1 ]]; ls",
  'x=PATH=1; a[x]=1; ls',
  'x=PATH=1; echo ${a[x]}; ls',
  "x='PATH=1'; declare -i y=x; ls",
  "x='PATH=1'; for ((i=x;i<0;)); do :; done; ls",
  '[[ PATH=1 -eq 1 ]]; ls',
  'v=PATH; [[ $v=1 -eq 1 ]]; ls',
  'declare -i x; x=PATH=1; ls',
  's=abc; echo ${s:PATH=1}; ls',
  'set -- {X,PA}TH=1; (( y = $2 )); ls',
  // Past the reader's budget of tests an arithmetic command is read as subshells: its assignment would be lost.
  `${'[[ a ]]; '.repeat(40)}(( PATH = 1 )); ls`,
];

/** Ordinary arithmetic. */
const ORDINARY = [
  'echo $((1 + 2))',
  '(( i++ ))',
  'for ((i = 0; i < 3; i++)); do echo $i; done',
  'x=5; echo $((x * 2)); let y=x+1',
  '(( n > 3 )) && echo many',
  '[[ $n -eq 3 ]] && echo three',
];

const dir = mkdtempSync(join(tmpdir(), 'rx-arithmetic-names-'));
mkdirSync(join(dir, '1'));
writeFileSync(join(dir, '1', 'ls'), '#!/bin/sh\n: > ran\n');
chmodSync(join(dir, '1', 'ls'), 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('arithmetic that assigns a variable programs are found by', () => {
  it.each(SETTERS)('%j is unreadable under a deny rule', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('deny');
  });

  it.each(ORDINARY)('%j stays allowed', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('allow');
  });

  it('each line runs ./1/ls in bash (the table is honest)', () => {
    for (const line of SETTERS) {
      rmSync(join(dir, 'ran'), { force: true });
      spawnSync('bash', ['-c', line], { cwd: dir, stdio: 'ignore', timeout: 20_000 });
      expect(existsSync(join(dir, 'ran')), line).toBe(true);
    }
  });
});
