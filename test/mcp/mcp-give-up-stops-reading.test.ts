import { afterEach, describe, expect, it, vi } from 'vitest';
import { MCP_NOTIFICATION_WINDOW_MS, MCP_SERVER_REQUESTS_MAX } from '../../src/mcp/mcp-notification-guard.js';
import { alive, chattyStdioServer } from './support/mcp-configs.js';
import { watchedClient, type WatchedClient } from './support/watched-client.js';

let watched: WatchedClient | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await watched?.close();
  watched = undefined;
});

// A ping is about 40 bytes; node reads a pipe 64 KiB at a time, and the SDK parses all of a
// chunk it has read. One chunk's worth of lines, rounded up: what may still be parsed.
const ONE_CHUNK_OF_PINGS = Math.ceil((64 * 1024) / 30);

// The SDK's close ends the server's stdin and gives it 2 s to exit, then SIGTERM and 2 s
// more, before SIGKILL; all the while it parsed every line the server wrote. A server writing
// as fast as it could once told to stop (these ignore SIGTERM) cost a core for those 4 s,
// every line of it checked as JSON-RPC.
describe('a stdio MCP server we have given up on', () => {
  it('closed by us, then spewing notifications: not one line more is parsed, and its process ends', async () => {
    watched = await watchedClient(chattyStdioServer({ spew: true }));
    expect((await watched.client.callTool({ name: 'echo', arguments: {} })).content).toEqual([{ type: 'text', text: 'echo ran' }]);
    const { pid } = watched;
    await watched.close();
    expect(watched.parsedAfterStop()).toBe(0);
    await expect.poll(() => alive(pid), { timeout: 15_000, interval: 50 }).toBe(false);
  }, 30_000);

  // The clock stands still: the storm trips the bound on requests at its 1,001st ping.
  it('flooding pings past the rate: it is killed, and at most the chunk being read is parsed after', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    watched = await watchedClient(chattyStdioServer());
    const { pid } = watched;
    await expect(watched.client.callTool({ name: 'storm', arguments: {} })).rejects.toThrow(/Connection closed/);
    expect(watched.closedBecause()).toBe(
      `it sent more than ${MCP_SERVER_REQUESTS_MAX} requests (such as ping) within ${MCP_NOTIFICATION_WINDOW_MS / 1000} s, so rxharness closed the connection`,
    );
    // Killed at once (SIGKILL): the call fails when the process has gone, so it has.
    expect(alive(pid)).toBe(false);
    expect(watched.parsedAfterStop()).toBeLessThanOrEqual(ONE_CHUNK_OF_PINGS);
  }, 30_000);
});
