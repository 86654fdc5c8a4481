import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { cliSandbox, type CliSandbox } from './cli-sandbox.js';

// An --extra-body nested deeper than JSON.stringify's stack (60,000 lists) parsed, and every
// request of the run then failed with "the response could not be read (Maximum call stack
// size exceeded)": the wrong thing blamed, found only once the run started. Bad usage now.

let sandbox: CliSandbox;
let server: FakeOpenAIServer;
beforeEach(async () => {
  sandbox = await cliSandbox();
  server = await FakeOpenAIServer.start({ handler: () => ({ text: 'ok' }) });
});
afterEach(async () => {
  await server.close();
  await sandbox.cleanup();
});

const nested = (depth: number): string => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;

async function run(extraBody: string): Promise<{ code: number; stderr: string }> {
  const io = sandbox.io({ OPENAI_API_KEY: 'test-key' });
  const code = await main(['run', '--json', '--model', 'm', '--base-url', server.baseURL, '--extra-body', extraBody, 'hi'], io);
  return { code, stderr: io.stderrText() };
}

describe('--extra-body nested too deep', () => {
  it('is bad usage naming the flag and the limit, before any request', async () => {
    const { code, stderr } = await run(nested(60_000));
    expect(code).toBe(2);
    expect(stderr).toMatch(/^rxharness: --extra-body is nested more than 64 levels deep/);
    expect(server.requests).toHaveLength(0);
  });

  it('a body nested 64 levels deep is sent', async () => {
    const { code } = await run(nested(63)); // the object and 63 lists
    expect(code).toBe(0);
    expect(server.requests).toHaveLength(1);
  });
});
