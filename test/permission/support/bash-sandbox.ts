import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PermissionPolicy } from '../../../src/permission/index.js';

/** Allows every line but those a bash deny rule on `rm *` matches (or the checker cannot read). */
export const denyRm = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });
/** Allows every line but those that write under `src/` (or may write any path). */
export const denySrc = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });

/** What a line did in a sandbox: ran a command (left a file `ran`), changed or removed `src/a`. */
export interface SandboxOutcome {
  readonly ran: boolean;
  readonly changed: boolean;
}

/** What a sandbox run gets: the line's input, and empty files to plant first (a file named `-delete`). */
export interface SandboxRun {
  readonly input?: string;
  readonly plant?: readonly string[];
}

/**
 * A runner of lines in real bash, each in a fresh folder holding `src/a` (text `a`) and `cmds`
 * (`touch ran`), under one folder named from `prefix` that is removed after the file's tests:
 * the proof that a table's attacks are real.
 */
export function bashSandbox(prefix: string): (line: string, run?: SandboxRun) => SandboxOutcome {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (line, run = {}) => {
    const box = mkdtempSync(join(dir, 'box-'));
    mkdirSync(join(box, 'src'));
    writeFileSync(join(box, 'src/a'), 'a\n');
    writeFileSync(join(box, 'cmds'), 'touch ran\n');
    for (const name of run.plant ?? []) writeFileSync(join(box, name), '');
    spawnSync('bash', ['-c', line], { cwd: box, encoding: 'utf8', timeout: 20_000, input: run.input ?? '' });
    const changed = !existsSync(join(box, 'src/a')) || readFileSync(join(box, 'src/a'), 'utf8') !== 'a\n';
    return { ran: existsSync(join(box, 'ran')), changed };
  };
}

/** Registers a test for each line that {@link denyRm} denies it (with `reason` in its reason, when given), and one that {@link denySrc} does. */
export function itDeniesEach(lines: readonly string[], reason?: string): void {
  it.each([...lines])('%j is denied under deny rm *', (line) => {
    const decision = denyRm.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    if (reason !== undefined) expect(decision.reason).toContain(reason);
  });
  it.each([...lines])('%j is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });
}

/** Registers a test for each line that both {@link denyRm} and {@link denySrc} allow it. */
export function itAllowsEach(lines: readonly string[]): void {
  it.each([...lines])('%j is allowed under deny rm * and deny write src/**', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('allow');
    expect(denySrc.evaluate('bash', line).action).toBe('allow');
  });
}
