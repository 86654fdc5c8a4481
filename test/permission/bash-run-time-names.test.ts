import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// A variable whose name the line decides only when it runs (`read "$v"`, `printf -v "$v"`,
// `declare "$v"=...`) may be PATH, and `v=PATH; printf -v "$v" %s ./bin; ls` runs ./bin/ls:
// under a bash deny rule such a line is unreadable, as `printf -v PATH` is.

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });

/** Lines setting a variable named at run time. */
const RUN_TIME = [
  'read "$v"',
  'read -a "$v"',
  'read -ra"$v"',
  'printf -v "$v" %s ./bin; ls',
  'printf -v"$v" %s ./bin; ls',
  'declare "$v"=./bin; ls',
  'export "$v"=./bin; ls',
  'export "$v"; ls',
  'typeset -x "$v"=./bin',
  'readonly "$v"=./bin',
  'f() { local "$1"=./bin; ls; }; f PATH',
  'export "L${x}"=1',
  'getopts ab "$v"',
  'mapfile -t "$v" < f',
  'readarray "$v" < f',
  'wait -p "$v"',
  'let "$v=1"',
  'declare -n r="$v"; r=./bin; ls',
];

/** Ordinary lines that name every variable they set. */
const NAMED = [
  'declare x="$y"',
  'export FOO="$x" BAR=1',
  'declare -p "$v"',
  'let "i=$j+1"',
  'printf -- "$fmt" x',
  'getopts ab opt "$@"',
  'read -r line',
  'for f in *.ts; do echo "$f"; done',
];

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe('a variable named only when the line runs', () => {
  it.each(RUN_TIME)('%j is unreadable under a deny rule', (line) => {
    const decision = policy.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain('only known when the line runs');
  });

  it('a reference made to PATH (declare -n) is a change of PATH', () => {
    expect(policy.evaluate('bash', 'declare -n r=PATH; r=./bin; ls').reason).toContain('a change of PATH');
  });

  it.each(NAMED)('%j stays allowed', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('allow');
  });

  it('these lines do set PATH and run ./bin/ls (the attacks are real)', () => {
    const lines = [
      'v=PATH; printf -v "$v" %s ./bin; ls',
      'v=PATH; declare "$v"=./bin; ls',
      'v=PATH; export "$v"=./bin; ls',
      'v=PATH=./bin; export "$v"; ls',
      'declare -n r=PATH; r=./bin; ls',
    ];
    for (const line of lines) {
      const dir = mkdtempSync(join(tmpdir(), 'rx-run-time-names-'));
      dirs.push(dir);
      mkdirSync(join(dir, 'bin'));
      writeFileSync(join(dir, 'bin', 'ls'), '#!/bin/sh\n: > ran\n');
      chmodSync(join(dir, 'bin', 'ls'), 0o755);
      spawnSync('bash', ['-c', line], { cwd: dir, stdio: 'ignore', timeout: 20_000 });
      expect(existsSync(join(dir, 'ran')), line).toBe(true);
      expect(policy.evaluate('bash', line).action, line).toBe('deny');
    }
  });
});
