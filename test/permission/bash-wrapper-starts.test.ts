import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// Where a simple wrapper's command starts is known (timeout, nice, nohup, stdbuf, setsid, and
// `jobs -x`): the words after it are its arguments, not a command nor an xargs. A line break
// inside an array's parentheses is a blank between its words, not the end of a command.

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });
const allowGitEcho = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: 'git *' }, { tool: 'bash', action: 'allow', pattern: 'echo *' }] });

/** Lines that run no rm, each checked against bash below. */
const HARMLESS = [
  'timeout 5 grep xargs f',
  'timeout 5 grep xargs env',
  'timeout 5 grep rm y',
  'nice -n 5 grep rm y',
  'jobs -x echo rm y',
  'sleep 0 & jobs -x echo rm y %1',
];

/** Lines that run rm through the same wrappers: still denied. */
const RUNS_RM = [
  'timeout 5 rm y',
  'timeout -s KILL 5 rm y',
  'timeout --sig=KILL 5 env rm y',
  'nice -5 rm y',
  'stdbuf -o0 rm y',
  'setsid -w rm y',
  'jobs -x rm y',
  'jobs -rx env rm y',
  'echo rm y | timeout 5 xargs env',
];

const dir = mkdtempSync(join(tmpdir(), 'rx-wrapper-starts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `line` in bash in the sandbox: whether `y` went. */
function removes(line: string): boolean {
  writeFileSync(join(dir, 'y'), '');
  spawnSync('bash', ['-c', line], { cwd: dir, encoding: 'utf8', timeout: 20_000, input: '' });
  return !existsSync(join(dir, 'y'));
}

describe('a wrapper whose command start is known', () => {
  it.each(HARMLESS)('%j is allowed under deny rm *', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('allow');
  });

  it.each(RUNS_RM)('%j is denied', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('deny');
  });

  it('bash runs rm y in each denied line, and in no allowed one (the tables are honest)', () => {
    for (const line of RUNS_RM) expect(removes(line), line).toBe(true);
    for (const line of HARMLESS) expect(removes(line), line).toBe(false);
  }, 60_000);

  it('a job spec as the command name of jobs -x is a name only known when it runs', () => {
    expect(policy.evaluate('bash', 'sleep 1 & jobs -x %1 y').reason).toMatch(/command name only known when it runs \("%1"/);
  });

  it('a wrapper option not understood leaves every later word a possible command', () => {
    expect(policy.evaluate('bash', 'timeout --frobnicate 5 grep rm y').action).toBe('deny');
  });
});

describe('an array assigned over several lines', () => {
  it.each(['a=(\nx\n)', 'a=(\n  x\n  y\n); echo "${a[@]}"', 'a+=(\nx # note\ny\n)\ngit status', 'declare -a a=(\nx\n); echo ok'])(
    '%j runs no command of its words',
    (line) => {
      const decision = allowGitEcho.evaluate('bash', line);
      expect(decision.reason).not.toMatch(/for "(?:x|y)"/);
    },
  );

  it.each(['a=(\nx\n)\nrm y', 'a=(\n$(rm y)\n)', 'a=(x)\nrm y'])('%j still runs what follows or is substituted', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('deny');
  });

  it('bash runs no element as a command', () => {
    expect(removes('a=(\nrm\ny\n)')).toBe(false);
    expect(policy.evaluate('bash', 'a=(\nrm\ny\n)').action).toBe('allow');
  });
});
