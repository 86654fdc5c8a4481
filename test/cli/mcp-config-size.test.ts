import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// An --mcp-config file was read whole, however large: `--mcp-config /dev/zero` (or a pipe
// that never ends) grew the process by ~100 MB a second and never ran. A config is a few KB:
// more than 1 MiB is bad usage, read no further; a pipe (`<(...)`) that ends is still read.

const sandbox = sandboxPerTest();

async function run(file: string): Promise<{ code: number; stderr: string }> {
  const io = sandbox.io({ OPENAI_API_KEY: '', RXHARNESS_DEMO_DELAY_MS: '0' });
  const code = await main(['run', '--demo', '--mcp-config', file, 'hi'], io);
  return { code, stderr: io.stderrText() };
}

const TOO_LARGE = /^rxharness: --mcp-config .*: larger than 1 MiB \(an MCP config is a few KB\); nothing was read past that\n$/;

describe('--mcp-config: a file too large', () => {
  it('of 2 MiB (valid JSON, padded) is bad usage', async () => {
    await sandbox.workspace.file('big.json', `{ "mcpServers": {} ${' '.repeat(2 * 1024 * 1024)}}`);
    const { code, stderr } = await run('big.json');
    expect(code).toBe(2);
    expect(stderr).toMatch(TOO_LARGE);
  });

  it.skipIf(process.platform === 'win32')('that never ends (/dev/zero) is bad usage, at once', async () => {
    const { code, stderr } = await run('/dev/zero');
    expect(code).toBe(2);
    expect(stderr).toMatch(TOO_LARGE);
  });

  it('a config just under the limit is read', async () => {
    await sandbox.workspace.file('padded.json', `{ "mcpServers": {} ${' '.repeat(1024 * 1024 - 100)}}`);
    expect((await run('padded.json')).code).toBe(0);
  });
});
