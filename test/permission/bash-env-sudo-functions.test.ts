import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// GNU env (and sudo) take any `NAME=VALUE`, not only names a shell could assign, and bash
// imports `BASH_FUNC_<name>%%` whose value starts with `() {` as a function that runs in place
// of the command <name>, in every bash started later. Such a setting is no shell assignment,
// yet it may not be dropped: a `BASH_FUNC_` one is code from elsewhere, any other name is
// refused under a bash deny rule, and a setting with spaces is read as a command line, as it
// was before env's command start was known.

const denyRm = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });
const denySrc = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });

/** Lines that run `rm y` through a function env gives bash, each checked against real bash below. */
const FUNCTION_RUNS_RM = [
  `env 'BASH_FUNC_grep%%=() { rm y; }' bash -c 'grep x'`,
  `env -- 'BASH_FUNC_grep%%=() { rm y; }' bash -c 'grep x'`,
  `env -i 'BASH_FUNC_grep%%=() { rm y; }' /bin/bash -c 'grep x'`,
  `timeout 5 env 'BASH_FUNC_grep%%=() { rm y; }' bash -c 'grep x'`,
  `env 'BASH_FUNC_echo%%=() { rm y; }' make`, // make's recipe runs `echo` in bash (the Makefile below)
];

const dir = mkdtempSync(join(tmpdir(), 'rx-env-sudo-functions-'));
mkdirSync(join(dir, 'src'));
writeFileSync(join(dir, 'Makefile'), 'SHELL := /bin/bash\nall:\n\t@echo made\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `line` in bash in the sandbox, with a fresh `y`. */
function run(line: string): { removed: boolean; stdout: string } {
  writeFileSync(join(dir, 'y'), '');
  const done = spawnSync('bash', ['-c', line], { cwd: dir, encoding: 'utf8', timeout: 20_000, input: '' });
  return { removed: !existsSync(join(dir, 'y')), stdout: done.stdout };
}

describe('a BASH_FUNC_ setting of env or sudo', () => {
  it.each(FUNCTION_RUNS_RM)('%j is denied under deny rm *', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('deny');
  });

  it('real bash runs rm y in each of those lines (the table is honest)', () => {
    for (const line of FUNCTION_RUNS_RM) expect(run(line).removed, line).toBe(true);
  }, 60_000);

  it('is code from elsewhere, whatever its value holds', () => {
    for (const line of [`env 'BASH_FUNC_echo%%=() { :; }' make`, `sudo 'BASH_FUNC_grep%%=() { :; }' bash -c 'grep x'`, `sudo -u root 'BASH_FUNC_ls%%=() { :; }' ls`]) {
      const decision = denyRm.evaluate('bash', line);
      expect(decision.action, line).toBe('deny');
      expect(decision.reason, line).toMatch(/a change of BASH_FUNC_\w+%%, which makes programs run code from elsewhere/);
    }
    // Where the command start is not known (a redirection may hide words), any word may be a setting.
    const hidden = denyRm.evaluate('bash', `sudo 'BASH_FUNC_grep%%=() { :; }' bash -c 'grep x' >out`);
    expect(hidden.action).toBe('deny');
    expect(hidden.reason).toMatch(/a change of BASH_FUNC_grep%%/);
  });

  it('sudo gives the function to the command as env does', () => {
    expect(denyRm.evaluate('bash', `sudo 'BASH_FUNC_grep%%=() { rm y; }' bash -c 'grep x'`).action).toBe('deny');
  });

  it('a write in the function is judged by the write rules', () => {
    const line = `env 'BASH_FUNC_ls%%=() { echo hi > src/x; }' bash -c ls`;
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
    expect(denySrc.evaluate('bash', `sudo ${line.slice('env '.length)}`).action).toBe('deny');
    run(line);
    expect(existsSync(join(dir, 'src', 'x'))).toBe(true); // bash ran the function in place of ls
  });
});

describe('other settings of env', () => {
  it('a name no shell assigns is refused under a bash deny rule: GNU env gives it to the program', () => {
    expect(denyRm.evaluate('bash', `env 'A-B=1' grep x y`).reason).toMatch(/a change of a variable no shell assigns \("A-B"\)/);
    expect(denyRm.evaluate('bash', `env 'a.b=1' printenv a.b`).reason).toMatch(/a change of a variable no shell assigns \("a\.b"\)/);
    expect(run(`env 'a.b=1' printenv a.b`).stdout).toBe('1\n');
  });

  it('an ordinary setting is no reason to deny', () => {
    for (const line of ['env A=1 grep x y', 'env -i A=1 B=2 grep x y', 'sudo A=1 grep x y', `env A='rm y' grep x`]) {
      expect(denyRm.evaluate('bash', line).action, line).toBe('allow');
      expect(denySrc.evaluate('bash', line).action, line).toBe('allow');
    }
  });

  it('a setting with spaces is read as a command line, as before env had a known start', () => {
    expect(denySrc.evaluate('bash', `env A='echo hi > src/x' grep x`).action).toBe('deny');
    expect(denySrc.evaluate('bash', `sudo A='echo hi > src/x' grep x`).action).toBe('deny');
    expect(denySrc.evaluate('bash', `env 'A B=echo hi > src/x' grep x`).action).toBe('deny');
  });
});
