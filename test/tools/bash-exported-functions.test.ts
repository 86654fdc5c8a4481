import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBashTool } from '../../src/tools/builtin/bash.js';
import { commandEnvironment } from '../../src/tools/command-environment.js';
import { runTool } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// bash defines a function for each `BASH_FUNC_<name>%%` variable it inherits. One named `cd`
// (or `echo`, `rm`) runs in place of the builtin the bash rules read: the write rules join a
// plain `cd frontend` onto later writes, so a `cd` that enters elsewhere would move them unseen.
const HIJACK = '() { builtin cd /; echo hijacked; }';

describe('functions exported into the bash tool', () => {
  const fresh = toolContextPerTest();

  beforeEach(() => {
    vi.stubEnv('BASH_FUNC_cd%%', HIJACK);
    vi.stubEnv('BASH_FUNC_echo%%', '() { builtin echo hijacked; }');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('a bash that inherits one runs it in place of the builtin (the attack is real)', () => {
    const out = spawnSync('bash', ['-c', 'cd . && pwd'], { cwd: '/tmp', env: { PATH: process.env.PATH, 'BASH_FUNC_cd%%': HIJACK }, encoding: 'utf8' });
    expect(out.stdout).toBe('hijacked\n/\n');
  });

  it('never reaches a command, whatever the environment option returns', async () => {
    for (const bash of [createBashTool({ killGraceMs: 200 }), createBashTool({ killGraceMs: 200, environment: (env) => ({ ...env, 'BASH_FUNC_rm%%': HIJACK }) })]) {
      const result = await runTool(bash, { command: 'cd . && pwd && echo plain && declare -F' }, fresh.context);
      expect(result.error).toBeUndefined();
      expect(result.text).not.toContain('hijacked');
      expect(result.text).not.toMatch(/declare -fx? (?:cd|echo|rm)\b/);
      expect(result.text).toContain('plain');
    }
  });

  it('drops every BASH_FUNC_ variable and keeps the rest', () => {
    const base = { PATH: '/bin', 'BASH_FUNC_cd%%': HIJACK, 'BASH_FUNC_x()': HIJACK, BASH_FUNCTIONS_NOTE: 'kept' };
    expect(commandEnvironment(undefined, base)).toEqual({ PATH: '/bin', BASH_FUNCTIONS_NOTE: 'kept' });
  });
});
