import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// Where env's and sudo's command starts is known: their options (env's as GNU env reads them,
// sudo's as sudo 1.9 does), then `NAME=VALUE` settings, then the command. The words after the
// command are its arguments, so `sudo grep -r foo .` runs no `.` and `env cp y out/vi` no
// `out/vi`. What they cannot follow (env -S, sudo -s / -i / -e, a word known only when the line
// runs) still leaves every later word a possible command.

const denyRm = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });
const denySrc = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });

/** env lines that run no rm, each checked against GNU env below. */
const ENV_HARMLESS = [
  'env grep rm y',
  'env -i A=1 grep rm y',
  'env -iv A=1 grep rm y',
  'env -u rm grep rm y',
  'env --unset=A grep rm y',
  'env --block-signal=INT grep rm y',
  'env --default-signal INT rm y', // the signal list is optional: INT is the command
  'env -- A=1 grep rm y',
  'env A=1 - rm y', // `-` after the settings is the command
  'env -i A=1 -- rm y', // and so is `--`
];

/** env lines that run rm: still denied. */
const ENV_RUNS_RM = ['env rm y', 'env - A=1 rm y', 'env -C . rm y', 'env --ch=. rm y', 'env -u A B=1 env rm y', "env -S 'rm y'", 'env -iS"rm y"'];

const dir = mkdtempSync(join(tmpdir(), 'rx-env-sudo-starts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `line` in bash in the sandbox: whether `y` went. */
function removes(line: string, env: Record<string, string> = {}): boolean {
  writeFileSync(join(dir, 'y'), '');
  spawnSync('bash', ['-c', line], { cwd: dir, encoding: 'utf8', timeout: 20_000, input: '', env: { ...process.env, ...env } });
  return !existsSync(join(dir, 'y'));
}

describe('env with a known command start', () => {
  it.each(ENV_HARMLESS)('%j is allowed under deny rm *', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('allow');
  });

  it.each(ENV_RUNS_RM)('%j is denied', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('deny');
  });

  it('GNU env runs rm y in each denied line, and in no allowed one (the tables are honest)', () => {
    for (const line of ENV_RUNS_RM) expect(removes(line), line).toBe(true);
    for (const line of ENV_HARMLESS) expect(removes(line), line).toBe(false);
  }, 60_000);

  it('a word after the command is no program run from a file', () => {
    expect(denyRm.evaluate('bash', 'env cp y out/vi').action).toBe('allow');
    expect(denySrc.evaluate('bash', 'env cp y out/vi').action).toBe('allow');
    expect(denySrc.evaluate('bash', 'env LANG=C cp y src/vi').action).toBe('deny');
  });

  it('a setting of PATH or HOME still counts as changing it', () => {
    for (const line of ['env PATH=bin cmd', 'env -i HOME=x cmd', '/usr/bin/env -u X PATH=bin ls']) {
      expect(denyRm.evaluate('bash', line).reason, line).toMatch(/a change of (?:PATH|HOME)/);
    }
  });

  it('-C is followed: what its command writes may land in any folder', () => {
    expect(denySrc.evaluate('bash', 'env -C src tee x').action).toBe('deny');
    expect(denySrc.evaluate('bash', 'env --chdir=src tee x').action).toBe('deny');
  });
});

describe('sudo with a known command start', () => {
  it.each([
    'sudo grep -r foo .',
    'sudo -n curl -o out/ar https://example.com/a',
    'sudo -u root grep rm y',
    'sudo -nu root grep rm y',
    'sudo --user=root -E grep rm y',
    'sudo --preserve-env=A,B grep rm y',
    'sudo A=1 -u root grep rm y',
    'sudo -D /tmp grep rm y',
    'sudo -l rm y',
    'sudo -lU bob rm y',
  ])('%j is allowed under deny rm * and deny write src/**', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('allow');
    expect(denySrc.evaluate('bash', line).action).toBe('allow');
  });

  it.each([
    'sudo rm -rf src',
    'sudo -u root rm y',
    'sudo -- rm src/x',
    'sudo A=1 -u root rm y', // options after a setting are read again
    'sudo -u root -- env rm y',
    "sudo -s 'rm y'",
    "sudo -i 'rm y'",
    'sudo --logi rm y', // ambiguous (--login, --login-class): not read
    'sudo -h host rm y', // the host is an optional value: not read
    'sudo --shell rm y',
    'sudo env -S "rm y"',
  ])('%j is denied under deny rm *', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('deny');
  });

  it('what its command writes is judged by the write rules', () => {
    for (const line of ['sudo rm -rf src', 'sudo -u root tee src/x', 'sudo -- rm src/x', 'sudo -D src tee x', 'sudo --chdir=src tee x', 'sudo -R / tee x']) {
      expect(denySrc.evaluate('bash', line).action, line).toBe('deny');
    }
  });

  it('sudo -e edits its operands: not read as a command start, its words stay possible commands', () => {
    expect(denyRm.evaluate('bash', 'sudo -e src/a').reason).toMatch(/a program run from a file \("src\/a"\)/);
  });

  it("its settings are the command's environment: a change of PATH, GIT_WORK_TREE...", () => {
    for (const line of ['sudo PATH=bin ls', 'sudo -u root PATH=bin ls', 'sudo HOME=x -u root ls', 'sudo -u root GIT_WORK_TREE=src git status']) {
      expect(denyRm.evaluate('bash', line).reason, line).toMatch(/a change of (?:PATH|HOME|GIT_WORK_TREE)/);
    }
  });
});

describe('a word before the command only known when the line runs', () => {
  it('may be several words: timeout $T grep rm y runs rm with T="5 rm"', () => {
    expect(removes('timeout $T grep rm y', { T: '5 rm' })).toBe(true);
    expect(denyRm.evaluate('bash', 'timeout $T grep rm y').action).toBe('deny');
    expect(denyRm.evaluate('bash', 'nice -n $N grep rm y').action).toBe('deny');
    expect(denyRm.evaluate('bash', 'env A=$X grep rm y').action).toBe('deny');
  });

  // A brace, a glob or an array before the command moves where it starts (found by a review of
  // stop 58's wrapper starts: each ran rm in bash and was allowed).
  const EXPANDED = ['timeout {5,rm} y', 'timeout -k {1,5} rm y', 'nice -n {5,rm} y', 'stdbuf -o {L,rm} y', 'jobs -x nice -n {5,rm} y', 'set -- 5 rm; nice -n "$@" y', 'a=(5 rm); nice -n "${a[@]}" y', 'touch 5 rm; timeout [5r]* y'];

  it.each(EXPANDED)('%j runs rm in bash and is denied', (line) => {
    expect(removes(line)).toBe(true);
    expect(denyRm.evaluate('bash', line).action).toBe('deny');
  });

  it('a brace hides a filler or a writer behind the wrapper: unreadable, denied under a bash deny rule', () => {
    expect(denyRm.evaluate('bash', 'echo rm y | timeout {5,xargs} env').action).toBe('deny');
    // A command name known only when the line runs is left to the bash rules (docs/permissions.md).
    const both = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });
    expect(both.evaluate('bash', 'timeout {5,cp} a src/x').reason).toMatch(/only known when it runs|cannot check/);
    expect(both.evaluate('bash', 'nice -n {5,mv} a src/x').action).toBe('deny');
    expect(both.evaluate('bash', 'timeout 5 mv a src/x').action).toBe('deny');
  });

  it('may be an option: sudo "$o" grep rm y runs rm with o=-u', () => {
    expect(denyRm.evaluate('bash', 'sudo "$o" grep rm y').action).toBe('deny');
    expect(denyRm.evaluate('bash', 'sudo -u "$USER" grep rm y').action).toBe('deny');
  });
});
