import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBashTool } from '../../src/tools/builtin/bash.js';
import { runTool } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

/** rxharness's own credentials, and a variable of the user's that must still pass. */
const SECRETS = {
  RXHARNESS_TOKEN: 'serve-token-0123456789abcdef',
  RXHARNESS_A2A_TOKEN: 'a2a-token-0123456789abcdef',
  RXHARNESS_REDIS_URL: 'redis://user:redis-password@127.0.0.1:6379',
};

describe('the environment of a bash command', () => {
  const fresh = toolContextPerTest();
  const bash = createBashTool({ killGraceMs: 200 });

  beforeEach(() => {
    for (const [name, value] of Object.entries(SECRETS)) vi.stubEnv(name, value);
    vi.stubEnv('RXHARNESS_TEST_USER_VARIABLE', 'user-value-passes');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("does not show rxharness's own credentials to `env`", async () => {
    const result = await runTool(bash, { command: 'env' }, fresh.context);
    expect(result.error).toBeUndefined();
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(result.text).not.toContain(value);
      expect(result.text).not.toContain(`${name}=`);
    }
  });

  it('gives `printenv RXHARNESS_TOKEN` nothing to print', async () => {
    const result = await runTool(bash, { command: 'printenv RXHARNESS_TOKEN' }, fresh.context);
    expect(result.text).toBe('(no output)\n[exit code: 1]');
  });

  it("still passes the user's variables (the model server's key aside: see bash-environment-option.test.ts)", async () => {
    const result = await runTool(bash, { command: 'printenv RXHARNESS_TEST_USER_VARIABLE' }, fresh.context);
    expect(result.text).toBe('user-value-passes\n[exit code: 0]');
  });

  it('leaves the process environment itself alone', async () => {
    await runTool(bash, { command: 'true' }, fresh.context);
    expect(process.env.RXHARNESS_TOKEN).toBe(SECRETS.RXHARNESS_TOKEN);
  });
});
