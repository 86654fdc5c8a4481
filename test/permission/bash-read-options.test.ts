import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// `read` evaluates the names it is given (`read 'a[$(rm f)]'` runs rm), not the values of its
// options: `read -p "$msg" answer` prints a prompt. A `$` in an option's value is ordinary; in a
// name, or in option letters (`read -r"$o"`, which `o=aPATH` makes `-raPATH`), it is not.

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });

/** Option values with a `$`: none is a name. */
const VALUES = [
  'read -p "$msg" answer',
  'read -rp "$msg: " answer',
  'read -t "$t" a',
  'read -d "$d" a',
  'read -n"$n" -u "$fd" a b',
  'read -p "$msg" -a list',
  'mapfile -n "$count" -t lines < f',
];

/** A `$` where bash takes a name, or letters that may make one. */
const NAMES = [
  'read -p "$msg" "$v"',
  'read -r"$o"',
  'read a -p "$v"',
  'mapfile -t"$o" < f',
  'printf "-$o" %s ./bin; ls',
  'wait "-$o" PATH',
  'declare "-$o" r=PATH; r=./bin; ls',
];

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe("read's option values and names", () => {
  it.each(VALUES)('%j is allowed: its "$" is in an option value', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('allow');
  });

  it.each(NAMES)('%j is unreadable: a name is only known when it runs', (line) => {
    const decision = policy.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain('only known when the line runs');
  });

  it('a name with a subscript stays unreadable next to a prompt', () => {
    expect(policy.evaluate('bash', 'read -p "$msg" "a[x]"').reason).toContain('"read" of an array element');
  });

  it('read -raPATH sets PATH', () => {
    expect(policy.evaluate('bash', 'read -raPATH <<< ./bin; ls').reason).toContain('a change of PATH');
  });

  it('a command substitution in the prompt is still judged', () => {
    expect(policy.evaluate('bash', 'read -p "$(rm x)" a').reason).toContain('rm *');
  });

  it('bash prints a prompt without evaluating it, and option letters in a variable do set PATH (the tables are honest)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rx-read-options-'));
    dirs.push(dir);
    spawnSync('bash', ['-c', `x='a[$(touch ran)]'; read -p "$x" -t 1 a <<< y; read -t "$x" a <<< y; read -d "$x" a <<< y`], { cwd: dir, stdio: 'ignore', timeout: 20_000 });
    expect(existsSync(join(dir, 'ran'))).toBe(false);
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'ls'), '#!/bin/sh\n: > ran\n');
    chmodSync(join(dir, 'bin', 'ls'), 0o755);
    // `read -raPATH` makes PATH an array, which bash does not search: the test shows PATH was set.
    const lines = ['o=aPATH; read -r"$o" <<< ./bin; [ "$PATH" = ./bin ] && : > ran', 'o=vPATH; printf "-$o" %s ./bin; ls', 'o=n; declare "-$o" r=PATH; r=./bin; ls'];
    for (const line of lines) {
      rmSync(join(dir, 'ran'), { force: true });
      spawnSync('bash', ['-c', line], { cwd: dir, stdio: 'ignore', timeout: 20_000 });
      expect(existsSync(join(dir, 'ran')), line).toBe(true);
      expect(policy.evaluate('bash', line).action, line).toBe('deny');
    }
  });

  it('env with option letters in a variable may split a command line (env "-$o", o="Srm f")', () => {
    const decision = policy.evaluate('bash', 'env "-$o"');
    expect(decision.action).toBe('deny');
    const dir = mkdtempSync(join(tmpdir(), 'rx-read-options-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'f'), '');
    spawnSync('bash', ['-c', `o='Srm f'; env "-$o"`], { cwd: dir, stdio: 'ignore', timeout: 20_000 });
    expect(existsSync(join(dir, 'f'))).toBe(false);
  });
});
