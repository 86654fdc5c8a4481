import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// `exec`, `command`, `builtin` and `time` run their command as a wrapper's: an xargs behind them
// still appends what it reads (`echo src/a | exec xargs rm` removes src/a), so it is read as there.

const denyRm = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });
const denySrc = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });

const dir = mkdtempSync(join(tmpdir(), 'rx-wrapped-xargs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether `line`, run in bash with `input` in a sandbox holding `src/a`, removes or changes src/a. */
function damages(line: string, input: string): boolean {
  const box = mkdtempSync(join(dir, 'box-'));
  mkdirSync(join(box, 'src'));
  writeFileSync(join(box, 'src/a'), 'a\n');
  spawnSync('bash', ['-c', line], { cwd: box, encoding: 'utf8', timeout: 20_000, input });
  return !existsSync(join(box, 'src/a')) || readFileSync(join(box, 'src/a'), 'utf8') !== 'a\n';
}

const ATTACKS: readonly (readonly [string, string])[] = [
  ['exec xargs rm', 'src/a\n'],
  ['time xargs rm', 'src/a\n'],
  ['time -p xargs rm', 'src/a\n'],
  ['command xargs rm', 'src/a\n'],
  ['exec xargs -0 rm', 'src/a'],
  ['exec -a x xargs rm', 'src/a\n'],
  ['command xargs find src', '-delete\n'],
  ['exec xargs find src', '-delete\n'],
  ['time xargs find src', '-delete\n'],
  ['command -p xargs find src', '-delete\n'],
  ['builtin command xargs find src', '-delete\n'],
];

describe('an xargs behind exec, command, builtin or time', () => {
  it('bash removes src/a with each (the attacks are real)', () => {
    for (const [line, input] of ATTACKS) expect(damages(line, input), line).toBe(true);
  }, 60_000);

  it.each(ATTACKS.map(([line]) => line))('%j is denied under deny rm *', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('deny');
  });

  it.each(ATTACKS.map(([line]) => line))('%j is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  it.each(['command -v rm', 'command ls', 'exec ls -l', 'time grep rm x', 'command xargs grep x'])('%j is allowed under deny rm *', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('allow');
  });
});
