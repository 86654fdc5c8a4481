import { afterEach, describe, expect, it, vi } from 'vitest';
import { MCP_NOTIFICATION_WINDOW_MS, MCP_NOTIFICATIONS_MAX } from '../../src/mcp/mcp-notification-guard.js';
import { collect, own } from '../support/collect-events.js';
import { steps } from '../support/delegation-script.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { countingClient, floodServer, type CountingClient, type FloodServer } from '../support/mcp-flood-kit.js';

const startFixture = delegationFixturePerTest();
let server: FloodServer | undefined;
let counting: CountingClient | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await counting?.client.close();
  await server?.cleanup();
  server = counting = undefined;
});

const REASON = `it sent more than ${MCP_NOTIFICATIONS_MAX} notifications within ${MCP_NOTIFICATION_WINDOW_MS / 1000} s, so rxharness closed the connection`;
const flood = (n: number) => ({ toolCalls: [{ name: 'mcp__flood__flood', arguments: { n } }] });

// The server goes round four kinds: a log message, a progress it was not asked for, a
// resource update, a changed tool list. Only the last is acted on; unguarded, all 50,000
// went through the SDK client's handlers (each progress one an error holding it as JSON),
// and every list_changed asked for another listing while the flood lasted.
describe('an MCP server flooding notifications during a call', () => {
  // The guard's clock (Date) stands still, as below: the 50,000 come within one of its
  // windows however slowly a loaded machine reads them, so past 10,000 it must close.
  // Nothing else is faked: the run's timers and the server run as they would.
  it('has its connection closed past the rate, the call failing saying why, and the run ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    server = await floodServer();
    const f = await startFixture({ main: steps(flood(50_000)) });
    const engine = f.engine({ mcpServers: { flood: server.config } });
    const events = await collect(engine.stream('go'));
    expect(own(events, 'ToolCallEnd')[0]!.text).toBe(
      `ERROR: MCP server "flood" failed during the call (stopped: ${REASON}); it is started again when the next run starts`,
    );
    expect(own(events, 'RunEnd')).toHaveLength(1);
    // The start's listing, and few more: list_changed is coalesced, and cut off with the rest.
    expect(await server.listings()).toBeGreaterThanOrEqual(1);
    expect(await server.listings()).toBeLessThanOrEqual(1 + MCP_NOTIFICATIONS_MAX / 4);
  }, 60_000);

  // The clock stands still: every notification comes within one window, whatever the load.
  it('reaches the client only up to the rate, and then only the kind it uses', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    server = await floodServer();
    counting = await countingClient(server.config);
    const call = counting.client.callTool({ name: 'flood', arguments: { n: 50_000 } });
    await expect(call).rejects.toThrow(/Connection closed/);
    expect(counting.closedBecause()).toBe(REASON);
    // Of the first MCP_NOTIFICATIONS_MAX (the rest dropped at once), their list_changed; nothing else.
    expect(counting.counts).toEqual({ listChanged: MCP_NOTIFICATIONS_MAX / 4, fallback: 0, errors: 0 });
  }, 60_000);

  it('at the rate, every list_changed reaches the client and the call answers, window after window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    server = await floodServer();
    counting = await countingClient(server.config);
    const sent = { type: 'text', text: `sent ${MCP_NOTIFICATIONS_MAX}` };
    expect((await counting.client.callTool({ name: 'flood', arguments: { n: MCP_NOTIFICATIONS_MAX } })).content).toEqual([sent]);
    vi.advanceTimersByTime(MCP_NOTIFICATION_WINDOW_MS);
    expect((await counting.client.callTool({ name: 'flood', arguments: { n: MCP_NOTIFICATIONS_MAX } })).content).toEqual([sent]);
    await expect.poll(() => counting!.counts.listChanged, { timeout: 10_000, interval: 20 }).toBe(MCP_NOTIFICATIONS_MAX / 2);
    expect(counting.counts).toEqual({ listChanged: MCP_NOTIFICATIONS_MAX / 2, fallback: 0, errors: 0 });
    expect(counting.closedBecause()).toBeUndefined();
  }, 60_000);
});
