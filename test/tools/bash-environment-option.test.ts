import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBashTool } from '../../src/tools/builtin/bash.js';
import { COMMAND_TAG } from '../../src/tools/tagged-processes.js';
import { runTool } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

/** What the shell sets itself, whatever it was given. */
const SHELL_SET = new Set(['PWD', 'OLDPWD', 'SHLVL', '_', COMMAND_TAG]);

/** The names `env` prints, one a line, without the tag every command carries and what the shell sets. */
const namesIn = (text: string): string[] =>
  text
    .split('\n')
    .filter((line) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(line))
    .map((line) => line.slice(0, line.indexOf('=')))
    .filter((name) => !SHELL_SET.has(name))
    .sort();

describe("the bash tool's `environment` option and its default", () => {
  const fresh = toolContextPerTest();

  beforeEach(() => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-model-key-0123456789');
    vi.stubEnv('RXHARNESS_TOKEN', 'serve-token-0123456789abcdef');
    vi.stubEnv('RXHARNESS_TEST_USER_VARIABLE', 'user-value-passes');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("leaves the model server's key (OPENAI_API_KEY) out by default, and passes the user's other variables", async () => {
    const result = await runTool(createBashTool(), { command: 'env' }, fresh.context);
    expect(result.error).toBeUndefined();
    expect(result.text).not.toContain('sk-model-key-0123456789');
    expect(result.text).toContain('RXHARNESS_TEST_USER_VARIABLE=user-value-passes');
  });

  it('gives a command only what the function returns (plus the tag it is stopped by)', async () => {
    const bash = createBashTool({ environment: (env) => ({ PATH: env.PATH, RXHARNESS_TEST_USER_VARIABLE: env.RXHARNESS_TEST_USER_VARIABLE }) });
    const result = await runTool(bash, { command: 'env' }, fresh.context);
    expect(namesIn(result.text)).toEqual(['PATH', 'RXHARNESS_TEST_USER_VARIABLE']);
  });

  it("passes the model server's key when the function keeps it, never rxharness's own credentials", async () => {
    const seen: NodeJS.ProcessEnv[] = [];
    const bash = createBashTool({
      environment: (env) => {
        seen.push(env);
        return { ...env, RXHARNESS_TOKEN: process.env.RXHARNESS_TOKEN };
      },
    });
    const result = await runTool(bash, { command: 'printenv OPENAI_API_KEY; printenv RXHARNESS_TOKEN' }, fresh.context);
    expect(result.text).toBe('sk-model-key-0123456789\n[exit code: 1]');
    expect(seen[0]).toMatchObject({ OPENAI_API_KEY: 'sk-model-key-0123456789' });
    expect(seen[0]).not.toHaveProperty('RXHARNESS_TOKEN');
  });

  it('hands the function a copy: changing it leaves the process environment alone', async () => {
    const bash = createBashTool({
      environment: (env) => {
        delete (env as NodeJS.ProcessEnv).RXHARNESS_TEST_USER_VARIABLE;
        return env;
      },
    });
    const result = await runTool(bash, { command: 'printenv RXHARNESS_TEST_USER_VARIABLE' }, fresh.context);
    expect(result.text).toBe('(no output)\n[exit code: 1]');
    expect(process.env.RXHARNESS_TEST_USER_VARIABLE).toBe('user-value-passes');
  });

  it('fails the call, running nothing, when the function throws or answers with a promise', async () => {
    const throws = createBashTool({
      environment: () => {
        throw new Error('no vault');
      },
    });
    const thrown = await runTool(throws, { command: 'touch ran' }, fresh.context);
    expect(thrown.error).toContain('`environment`');
    expect(thrown.error).toContain('no vault');
    const later = createBashTool({ environment: (async (env: NodeJS.ProcessEnv) => env) as unknown as (env: NodeJS.ProcessEnv) => NodeJS.ProcessEnv });
    const promised = await runTool(later, { command: 'touch ran' }, fresh.context);
    expect(promised.error).toContain('must return an object of variables');
    expect((await runTool(createBashTool(), { command: 'ls' }, fresh.context)).text).toBe('(no output)\n[exit code: 0]');
  });
});
