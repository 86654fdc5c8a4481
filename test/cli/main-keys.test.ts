import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

const sandbox = sandboxPerTest({ handler: () => ({ text: 'hello from a local server' }) });

describe('rxharness run against a server of your own', () => {
  it('needs no API key with --base-url, and sends no Authorization header', async () => {
    const cli = sandbox.io({});
    expect(await main(['run', '--model', 'tiny', '--base-url', sandbox.server.baseURL, '--json', 'hi'], cli)).toBe(0);
    expect(cli.stdoutText()).toContain('hello from a local server');
    expect(sandbox.server.requests[0]?.headers['authorization']).toBeUndefined();
  });

  it('--api-key is sent as the bearer token and wins over OPENAI_API_KEY', async () => {
    const cli = sandbox.io({ OPENAI_API_KEY: 'from-env' });
    expect(await main(['run', '--model', 'tiny', '--base-url', sandbox.server.baseURL, '--api-key', 'from-flag', '--json', 'hi'], cli)).toBe(0);
    expect(sandbox.server.requests[0]?.headers['authorization']).toBe('Bearer from-flag');
  });
});
