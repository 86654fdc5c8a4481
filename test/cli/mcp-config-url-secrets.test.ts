import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// A server url with a user and password in it (http://user:pass@host/mcp) can never work:
// fetch refuses such a url. It was accepted, and the refusal quoted the password in a
// Warning event of every run (the NDJSON, the page, the logs); a url that is not http quoted
// it on stderr. Now bad usage before anything runs, the password never shown.

const sandbox = sandboxPerTest();

async function runWith(url: string): Promise<{ code: number; said: string }> {
  await sandbox.workspace.file('mcp.json', JSON.stringify({ mcpServers: { remote: { url } } }));
  const io = sandbox.io({ OPENAI_API_KEY: '', RXHARNESS_DEMO_DELAY_MS: '0' });
  const code = await main(['run', '--demo', '--json', '--mcp-config', 'mcp.json', 'hi'], io);
  return { code, said: io.stderrText() + io.stdoutText() };
}

describe('--mcp-config: a url with credentials in it', () => {
  it('is bad usage that says to send them as headers, and never shows the password', async () => {
    const { code, said } = await runWith('http://me:S3CRET-pw@127.0.0.1:9/mcp');
    expect(code).toBe(2);
    expect(said).toMatch(/^rxharness: --mcp-config mcp\.json: `mcpServers\.remote` `url` must not hold a user or password .*`headers`/);
    expect(said).not.toContain('S3CRET');
  });

  it('a url that is not http does not show its password either', async () => {
    const { code, said } = await runWith('ftp://me:S3CRET-pw@127.0.0.1/mcp');
    expect(code).toBe(2);
    expect(said).toContain('must be an http or https url');
    expect(said).not.toContain('S3CRET');
  });
});

// A key is often put in the query (`?key=...`) too: a refused url is named by where it points
// (`shownUrl`: scheme, host and path), never by its query, user or password.
describe('--mcp-config: a refused url with a key in its query', () => {
  it('that is not http is named by scheme, host and path, without the query', async () => {
    const { code, said } = await runWith('ftp://127.0.0.1/mcp?key=K3Y-in-query');
    expect(code).toBe(2);
    expect(said).toContain('must be an http or https url, got "ftp://127.0.0.1/mcp"');
    expect(said).not.toContain('K3Y');
    expect(said).not.toContain('?key');
  });

  it('with a user and password too is named without either, nor the query', async () => {
    const { code, said } = await runWith('http://me:S3CRET-pw@127.0.0.1:9/mcp?key=K3Y-in-query');
    expect(code).toBe(2);
    expect(said).toContain('`url` must not hold a user or password (http://127.0.0.1:9/mcp)');
    expect(said).not.toMatch(/S3CRET|K3Y|\?key|me:/);
  });

  it('that is not http, with a user and password, is named without them', async () => {
    const { code, said } = await runWith('ftp://me:S3CRET-pw@127.0.0.1/mcp?key=K3Y-in-query');
    expect(code).toBe(2);
    expect(said).toContain('got "ftp://127.0.0.1/mcp"');
    expect(said).not.toMatch(/S3CRET|K3Y|\?key|me:/);
  });
});
