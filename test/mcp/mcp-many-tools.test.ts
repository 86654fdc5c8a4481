import { describe, expect, it } from 'vitest';
import { collect, own } from '../support/collect-events.js';
import { turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps } from '../support/delegation-script.js';
import { MCP_MAX_TOOLS } from '../../src/mcp/mcp-tool-limits.js';
import { hostileStdioServer } from './support/mcp-configs.js';

const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

// Each tool offered is sent with every model request and has a validator compiled when
// listed: 10,000 of them held the event loop for about 12 seconds at each listing.
describe('an MCP server listing 10,000 tools', () => {
  it('offers its first 256 (names made fit, a collision left out), leaves the rest out with a warning, and lists no further pages', async () => {
    const call = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });
    f = await startFixture({ main: steps(call('mcp__many__tool_3', { path: 'a', count: 3 }), call('mcp__many__pages')) });
    const engine = f.engine({ mcpServers: { many: hostileStdioServer({ tools: 10_000 }) } });
    const events = await collect(engine.stream('go'));
    const offered = turnOf(f.server.requests[0]!).toolNames.filter((n) => n.startsWith('mcp__many__'));
    expect(offered).toHaveLength(MCP_MAX_TOOLS);
    expect(offered.filter((n) => n === 'mcp__many__a_b')).toHaveLength(1);
    const skipped = own(events, 'Warning').filter((w) => w.code === 'mcp-tool-skipped').map((w) => w.message);
    expect(skipped).toContainEqual(expect.stringMatching(/MCP server "many" lists more than 256 tools; only its first 256 are offered/));
    expect(skipped).toContainEqual(expect.stringMatching(/two tools named mcp__many__a_b .*"a_b" is left out/));
    // Its first page of 1,000 holds more than are offered: the ten others are not asked for.
    expect(own(events, 'ToolCallEnd').map((e) => e.text)).toEqual(['tool_3 got {"path":"a","count":3}', 'listed 1 pages']);
  }, 60_000);
});
