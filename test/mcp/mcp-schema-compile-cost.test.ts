import { describe, expect, it } from 'vitest';
import { collect, own } from '../support/collect-events.js';
import { turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps } from '../support/delegation-script.js';
import { hostileStdioServer } from './support/mcp-configs.js';
import { withLongestLoopGap } from '../support/loop-gap.js';

const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

const WIDE = 64;
const call = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });

// Compiling an input schema costs about half a second per 64 KiB: compiled when listed, 256
// such tools held the event loop for minutes at each listing (these 64, for over fifteen seconds).
describe(`an MCP server listing ${WIDE} tools whose input schemas are each just under 64 KiB`, () => {
  it('lists them without holding the event loop, and checks a call against its schema at the call', async () => {
    f = await startFixture({ main: steps(call('mcp__wide__wide_3', { f3_0: 7 }), call('mcp__wide__wide_3', { f3_0: 'ok' })) });
    const engine = f.engine({ mcpServers: { wide: hostileStdioServer({ wide: WIDE }) } });
    // The longest gap between beats of a 5 ms timer: one schema compiled at the first call
    // takes about half a second (a few on a loaded machine), all of them took over fifteen.
    const { value: events, longest } = await withLongestLoopGap(collect(engine.stream('go')));
    // All are listed; those that fit in the bound on a server's tools (256 KiB) are offered.
    const offered = turnOf(f.server.requests[0]!).toolNames.filter((n) => n.startsWith('mcp__wide__wide_'));
    expect(offered.length).toBeGreaterThan(3);
    expect(offered.length).toBeLessThan(WIDE);
    const ends = own(events, 'ToolCallEnd').map((e) => e.text);
    expect(ends[0]).toMatch(/^ERROR: .*"f3_0" must be string/);
    expect(ends[1]).toBe('wide_3 got {"f3_0":"ok"}');
    expect(longest).toBeLessThan(5_000);
  }, 120_000);
});
