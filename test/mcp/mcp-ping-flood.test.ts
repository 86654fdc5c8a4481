import { describe, expect, it } from 'vitest';
import { MCP_UNSENT_MAX } from '../../src/mcp/mcp-send-guard.js';
import { connectionPerTest } from './support/connection-per-test.js';
import { pingFloodStdioServer } from './support/mcp-configs.js';

const mcp = connectionPerTest();

// The SDK answers each ping a server sends, and keeps an answer the server's stdin cannot
// take yet in memory (with a `drain` listener each): a server pinging as fast as it could and
// reading nothing grew the engine by about 100 MB a second, for as long as the engine ran.
describe('an MCP server sending pings for ever and reading none of the answers', () => {
  it('has its connection closed once 1,000 answers wait for it, saying why, and the memory they held is let go', async () => {
    const connection = await mcp.connect('flood', pingFloodStdioServer());
    expect(connection.tools.map((t) => t.name)).toEqual(['echo']);
    const heap = process.memoryUsage().heapUsed;
    await expect.poll(() => connection.running, { timeout: 15_000, interval: 50 }).toBe(false);
    expect(connection.problem).toBe(`stopped: it did not take the last ${MCP_UNSENT_MAX} messages rxharness sent it, so rxharness closed the connection`);
    // What waited for it was let go, not kept: well under the hundreds of MB it grew to.
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(64 * 1024 * 1024);
  }, 30_000);
});
