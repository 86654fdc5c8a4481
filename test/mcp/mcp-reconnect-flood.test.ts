import { describe, expect, it } from 'vitest';
import { MCP_RECONNECT_MIN_MS, MCP_RECONNECTS_EARLY_MAX } from '../../src/mcp/mcp-reconnect-guard.js';
import { closedAfterEach } from '../support/closed-after-each.js';
import { connectionPerTest } from './support/connection-per-test.js';
import { startRetryZeroHttpServer, type RetryZeroHttpServer } from './support/retry-zero-http-server.js';

const open = closedAfterEach<{ server: RetryZeroHttpServer }>(['server']);
// Registered after the server's afterEach, so it runs first: the connection closes before its server.
const mcp = connectionPerTest();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Unguarded, the SDK took the server's `retry: 0` as it came and reset its attempts at each
// clean end: thousands of reconnects a second, a core busy until engine.close().
describe('an MCP server over HTTP that ends its event stream at once, asking for reconnects with retry: 0', () => {
  it('is reconnected to at most once a second, and after a few early reconnects in a row the connection is closed saying why', async () => {
    const server = (open.server = await startRetryZeroHttpServer());
    const connection = await mcp.connect('spin', { url: server.url });
    expect(connection.running).toBe(true);
    await sleep(2.5 * MCP_RECONNECT_MIN_MS);
    // The first stream and two reconnects held back a second each (and one in flight).
    expect(server.gets()).toBeLessThanOrEqual(4);
    const until = Date.now() + (MCP_RECONNECTS_EARLY_MAX + 5) * MCP_RECONNECT_MIN_MS;
    while (connection.running && Date.now() < until) await sleep(100);
    expect(connection.running).toBe(false);
    expect(connection.problem).toMatch(/^stopped: it ended its event stream and asked to reconnect sooner than 1 s \d+ times in a row, so rxharness closed the connection/);
    const gets = server.gets();
    expect(gets).toBeLessThanOrEqual(MCP_RECONNECTS_EARLY_MAX + 2);
    await sleep(1.5 * MCP_RECONNECT_MIN_MS);
    expect(server.gets()).toBe(gets);
  }, 30_000);
});
