import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandParts, PermissionPolicy } from '../../src/permission/index.js';

// In `[[ ... ]]` the word after `=~` is a regular expression: bash reads its `|` as text, never
// as a pipe, and a `>` there compares (or is refused), never redirects. The reader used to split
// `[[ $a =~ x|y ]]` into the commands `[[ $a =~ x` and `y ]]`.

const denyRm = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });
const denyWriteF = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'write', action: 'deny', pattern: 'f' }] });
const onlyTests = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '[[ *' }, { tool: 'bash', action: 'allow', pattern: 'echo *' }] });

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe('a regular expression after =~ in [[ ]]', () => {
  it('its "|" is part of the expression: one command, nothing piped', () => {
    expect(commandParts('[[ $a =~ ^(x|y)$ ]]').commands).toEqual(['[[ $a =~ ^(x|y)$ ]]']);
    expect(commandParts('[[ $a =~ ^(x|y)$ ]]').opaque).toBeUndefined();
    expect(commandParts('if [[ $x =~ a|b ]]; then echo y; fi').commands).toEqual(['[[ $x =~ a|b ]]', 'echo y']);
    expect(denyRm.evaluate('bash', '[[ $a =~ x|rm ]]').action).toBe('allow');
    expect(onlyTests.evaluate('bash', '[[ $a =~ a|b ]] && echo ok').action).toBe('allow');
  });

  it('a ">" after it writes no file', () => {
    const parts = commandParts('[[ a =~ x|y > f ]]');
    expect(parts.commands).toEqual(['[[ a =~ x|y > f ]]']);
    expect(parts.writes).toBeUndefined();
    expect(denyWriteF.evaluate('bash', '[[ a =~ x|y > f ]]').action).toBe('allow');
  });

  it('a pipe where the expression has ended is still read as one', () => {
    for (const line of ['[[ a =~ x ]] | rm v', '[[ a =~ ]]|rm v', '[[ a =~ x |rm v ]]', '[[ a == x|rm v ]]', 'echo =~ x|rm v', '[[ a =~ a|b&&c ]] | rm v']) {
      expect(denyRm.evaluate('bash', line).action, line).toBe('deny');
    }
  });

  it('bash reads these lines so (the samples are real)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rx-test-regex-'));
    dirs.push(dir);
    const run = (line: string): { status: number | null; stderr: string } => {
      const ran = spawnSync('bash', ['-c', line], { cwd: dir, encoding: 'utf8' });
      return { status: ran.status, stderr: ran.stderr };
    };
    expect(run('x=y; [[ $x =~ ^(x|y)$ ]]').status).toBe(0);
    expect(run('[[ ab =~ x|b ]]').status).toBe(0);
    // Refused (bash reports a syntax error): nothing runs, and no file is made.
    expect(run('[[ a =~ x|y > f ]]').stderr).toContain('syntax error in conditional expression');
    expect(existsSync(join(dir, 'f'))).toBe(false);
    expect(existsSync(join(dir, 'y'))).toBe(false);
  });
});
