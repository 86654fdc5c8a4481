import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpConnection } from '../../src/mcp/mcp-connection.js';
import { MCP_NOTIFICATION_WINDOW_MS, MCP_SERVER_REQUESTS_MAX } from '../../src/mcp/mcp-notification-guard.js';
import { connectionPerTest } from './support/connection-per-test.js';
import { chattyStdioServer } from './support/mcp-configs.js';

const mcp = connectionPerTest();
// Registered after connectionPerTest, so it runs first: the real clock is back before the connection closes.
afterEach(() => void vi.useRealTimers());

const REASON = `it sent more than ${MCP_SERVER_REQUESTS_MAX} requests (such as ping) within ${MCP_NOTIFICATION_WINDOW_MS / 1000} s, so rxharness closed the connection`;
const text = (result: { content: unknown }) => result.content;
const chatty = async (): Promise<McpConnection> => {
  const connection = await mcp.connect('chatty', chattyStdioServer());
  expect(connection.problem).toBeUndefined();
  return connection;
};

// The SDK answers every request a server makes (a ping; any other method with "no such
// method"). A server that reads its answers is never held back by the bound on unsent
// messages: unbounded, it kept the engine parsing pings and writing answers as fast as it
// liked, for as long as it liked.
describe('an MCP server sending requests (pings)', () => {
  // The clock stands still: every ping comes within one window, whatever the load.
  it('as fast as it can, reading the answers: its connection is closed past the rate, the call in flight failing saying why', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const c = await chatty();
    const call = c.call('storm', {}, new AbortController().signal);
    await expect(call).rejects.toThrow(`MCP server "chatty" failed during the call (stopped: ${REASON}); it is started again when the next run starts`);
    expect(c.running).toBe(false);
    expect(c.problem).toBe(`stopped: ${REASON}`);
  }, 30_000);

  it('now and then: every ping is answered and the connection stays', async () => {
    const c = await chatty();
    expect(text(await c.call('pings', { n: 20 }, new AbortController().signal))).toEqual([{ type: 'text', text: '20 of 20 pings answered' }]);
    expect(c.running).toBe(true);
  }, 30_000);

  it('at the rate, window after window: every ping is answered and the connection stays', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const c = await chatty();
    const answered = [{ type: 'text', text: `${MCP_SERVER_REQUESTS_MAX} of ${MCP_SERVER_REQUESTS_MAX} pings answered` }];
    expect(text(await c.call('pings', { n: MCP_SERVER_REQUESTS_MAX }, new AbortController().signal))).toEqual(answered);
    vi.advanceTimersByTime(MCP_NOTIFICATION_WINDOW_MS);
    expect(text(await c.call('pings', { n: MCP_SERVER_REQUESTS_MAX }, new AbortController().signal))).toEqual(answered);
    expect(c.running).toBe(true);
    expect(c.problem).toBeUndefined();
  }, 30_000);
});
