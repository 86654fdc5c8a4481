import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { cliSandbox, type CliSandbox } from './cli-sandbox.js';

let sandbox: CliSandbox;
let server: FakeOpenAIServer;
beforeEach(async () => {
  sandbox = await cliSandbox();
  server = await FakeOpenAIServer.start({ handler: () => ({ text: 'hello from a local server' }) });
});
afterEach(async () => {
  await server.close();
  await sandbox.cleanup();
});

describe('rxharness run against a server of your own', () => {
  it('needs no API key with --base-url, and sends no Authorization header', async () => {
    const cli = sandbox.io({});
    expect(await main(['run', '--model', 'tiny', '--base-url', server.baseURL, '--json', 'hi'], cli)).toBe(0);
    expect(cli.stdoutText()).toContain('hello from a local server');
    expect(server.requests[0]?.headers['authorization']).toBeUndefined();
  });

  it('--api-key is sent as the bearer token and wins over OPENAI_API_KEY', async () => {
    const cli = sandbox.io({ OPENAI_API_KEY: 'from-env' });
    expect(await main(['run', '--model', 'tiny', '--base-url', server.baseURL, '--api-key', 'from-flag', '--json', 'hi'], cli)).toBe(0);
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer from-flag');
  });
});
