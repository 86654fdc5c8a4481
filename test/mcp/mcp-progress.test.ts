import { describe, expect, it } from 'vitest';
import { collect, own } from '../support/collect-events.js';
import { steps } from '../support/delegation-script.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { connectionPerTest } from './support/connection-per-test.js';
import { chattyStdioServer } from './support/mcp-configs.js';

const mcp = connectionPerTest();
// Registered after connectionPerTest, so its afterEach runs first: this test's engines and fixture close before the marks file goes.
const startFixture = delegationFixturePerTest();

// A call asks for no progress (it sends no progress token): the SDK's own timeout is off, so
// progress would keep nothing alive, and the agent's tool timeout is the one bound.
describe('an MCP tool that reports progress while it works', () => {
  it('answers as any tool; the call carried no progress token', async () => {
    const connection = await mcp.connect('chatty', chattyStdioServer());
    const result = await connection.call('slow', { count: 5, everyMs: 20 }, new AbortController().signal);
    expect(result.content).toEqual([{ type: 'text', text: 'slow ran, progress token: none' }]);
    expect(connection.running).toBe(true);
  }, 30_000);

  it('reporting for ever: its progress does not keep the call past the tool timeout, which cancels it on the server', async () => {
    const marks = await mcp.marks();
    const f = await startFixture({ main: steps({ toolCalls: [{ name: 'mcp__t__slow', arguments: { count: 0, everyMs: 20 } }] }) });
    const engine = f.engine({ mcpServers: { t: chattyStdioServer({ marks }) }, toolTimeoutMs: 1_000 });
    const events = await collect(engine.stream('go'));
    expect(own(events, 'ToolCallEnd')[0]!.text).toMatch(/^ERROR: .*did not finish within 1000 ms/);
    expect(own(events, 'RunEnd')).toHaveLength(1);
    await marks.waitFor(/^cancelled /);
  }, 30_000);
});
