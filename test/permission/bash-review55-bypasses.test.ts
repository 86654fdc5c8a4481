import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// Lines a review found allowed under `rm *` although bash sets PATH (then `ls` runs `./1/ls`)
// or runs rm. Each group is one mend; the bash checks keep the tables honest.

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });
const action = (line: string): string => policy.evaluate('bash', line).action;

/** Arithmetic text as bash evaluates it: quotes dropped, line continuations joined. */
const QUOTED_ARITHMETIC = ['(( "PATH" = 1 )); ls', ': $(( "PATH" = 1 )); ls', ': $(( PA\\\nTH = 1 )); ls', ': $[ "PATH" = 1 ]; ls'];
/** Element 0 of a plain variable is the variable. */
const SUBSCRIPTED = ['let PATH[0]=1; ls', ': $(( PATH[0] = 1 )); ls', "printf -v 'PATH[0]' %s 1; ls", '(( PATH[0] = 1 )); ls', 'x[PATH[0]=1]=2; ls'];
/** A reference whose target a later assignment names. */
const LATE_REFERENCE = ['declare -n r; r=PATH; r=1; ls', 'local -n r 2>/dev/null; declare -n r; r=PATH; r=1; ls'];
/** `-p` last in a bundle takes the next word. */
const WAIT_BUNDLED = [': & wait -np PATH; ls', 'v=PATH; : & wait -np "$v"; ls'];
/** Values built at run time, then evaluated as arithmetic. */
const BUILT_VALUES = ['z=PATH; z+==1; ((z)); ls', 'printf -v z %s=1 PATH; ((z)); ls', 'z=path; z=${z^^}=1; ((z)); ls'];

const dir = mkdtempSync(join(tmpdir(), 'rx-review55-'));
mkdirSync(join(dir, '1'));
writeFileSync(join(dir, '1', 'ls'), '#!/bin/sh\n: > ran\n');
chmodSync(join(dir, '1', 'ls'), 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether bash running `line` in the sandbox runs `./1/ls`. */
function runsPlantedLs(line: string): boolean {
  rmSync(join(dir, 'ran'), { force: true });
  spawnSync('bash', ['-c', line], { cwd: dir, stdio: 'ignore', timeout: 20_000 });
  return existsSync(join(dir, 'ran'));
}

/** PATH as bash holds it after `line` (its `; ls` left off). */
function pathAfter(line: string): string {
  const run = spawnSync('bash', ['-c', `${line.replace(/; ls$/, '')}; printf %s "$PATH"`], { cwd: dir, encoding: 'utf8', timeout: 20_000 });
  return run.stdout;
}

describe('bash policy: bypasses from review 55', () => {
  it.each(QUOTED_ARITHMETIC)('B6: %j (quoted or continued arithmetic name) is denied', (line) => {
    expect(action(line)).toBe('deny');
  });

  it('B2: a mapfile callback is judged with the words bash adds', () => {
    expect(action('mapfile -C rm -c 1 arr < f')).toBe('deny');
    expect(action('readarray -c1 -Crm arr < f')).toBe('deny');
    expect(policy.evaluate('bash', 'mapfile -C rm -c 1 arr < f').reason).toContain('rm *');
    // eval gets the line read as code: unreadable.
    expect(action('mapfile -C eval arr < f')).toBe('deny');
    expect(action('eval "echo $x"')).toBe('deny');
    expect(action('mapfile -t lines < f.txt')).toBe('allow');
    expect(action('eval echo hi')).toBe('allow');
  });

  it.each(SUBSCRIPTED)('B7: %j (a subscript of PATH) is denied', (line) => {
    expect(action(line)).toBe('deny');
  });

  it.each(LATE_REFERENCE)('B4: %j (a reference set later) is denied', (line) => {
    expect(action(line)).toBe('deny');
    expect(action('declare -n r=foo; ls')).toBe('allow');
    expect(action('export -n FOO; ls')).toBe('allow');
  });

  it.each(WAIT_BUNDLED)('B5: %j (wait -np NAME) is denied', (line) => {
    expect(action(line)).toBe('deny');
    expect(action('sleep 1 & wait -n; ls')).toBe('allow');
  });

  it.each([...BUILT_VALUES, "printf -v z 'a[%s(rm x)]' '$'; ((z))"])('B1: %j (a built value evaluated) is denied', (line) => {
    expect(action(line)).toBe('deny');
    expect(action('x=1; echo $((x + 1))')).toBe('allow');
  });

  it('B3: LESS or MAKEFLAGS set to a value the line does not show is denied', () => {
    expect(action('read LESS <<< --lesskey-src=keys.src; export LESS; less in.txt')).toBe('deny');
    expect(action('L=--lesskey-src=k; LESS=$L less in.txt')).toBe('deny');
    expect(action('read -r MAKEFLAGS < flags.txt; export MAKEFLAGS; make')).toBe('deny');
    expect(action('LESS=-R less in.txt')).toBe('allow');
    expect(action('read -r name; echo "$name"')).toBe('allow');
  });

  it('B8: a regex in [[ is no glob, so BASH_REMATCH stays allowed', () => {
    expect(action('[[ $branch =~ ^feature/(.*)$ ]] && echo "${BASH_REMATCH[1]}"')).toBe('allow');
    // A real glob still carries where a variable gets its names (`a[f]` evaluates a file named `a[$(rm x)]`);
    // echo hands them on too: as a function's $1, or as `$_` (the last word of the command before).
    expect(action('for f in *.ts; do echo "${a[f]}"; done')).toBe('deny');
    expect(action('f() { :; }; echo *.ts; echo "${a[1]}"')).toBe('deny');
  });

  it('bash sets PATH to a number on each denied line (the tables are honest)', () => {
    for (const line of [...QUOTED_ARITHMETIC, ...SUBSCRIPTED, ...LATE_REFERENCE, ...WAIT_BUNDLED, ...BUILT_VALUES]) {
      expect(pathAfter(line), line).toMatch(/^\d+$/);
    }
    // Where PATH becomes `1`, `ls` runs `./1/ls` (bash 5.2 finds nothing after a subscript assignment, and `wait` sets a job id).
    for (const line of [...QUOTED_ARITHMETIC, ...LATE_REFERENCE, ...BUILT_VALUES]) expect(runsPlantedLs(line), line).toBe(true);
  });

  it('bash runs rm through mapfile callbacks and printf-built arithmetic', () => {
    writeFileSync(join(dir, 'f'), 'x; : > evaluated\n');
    writeFileSync(join(dir, '0'), '');
    spawnSync('bash', ['-c', 'mapfile -C rm -c 1 arr < f'], { cwd: dir, stdio: 'ignore', timeout: 20_000 });
    expect(existsSync(join(dir, '0'))).toBe(false);
    spawnSync('bash', ['-c', 'mapfile -C eval -c 1 arr < f'], { cwd: dir, stdio: 'ignore', timeout: 20_000 });
    expect(existsSync(join(dir, 'evaluated'))).toBe(true);
    writeFileSync(join(dir, 'x'), '');
    spawnSync('bash', ['-c', "printf -v z 'a[%s(rm x)]' '$'; ((z))"], { cwd: dir, stdio: 'ignore', timeout: 20_000 });
    expect(existsSync(join(dir, 'x'))).toBe(false);
  });
});
