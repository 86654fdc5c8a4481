import { describe, expect, it } from 'vitest';
import { collect, own } from '../support/collect-events.js';
import type { DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps } from '../support/delegation-script.js';
import { hostileStdioServer } from './support/mcp-configs.js';
import { withLongestLoopGap } from '../support/loop-gap.js';

const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

describe('an MCP server listing a tool with a 2 MB output schema', () => {
  it('does not hold the event loop: the schema is not compiled when listed, and one over 64 KiB checks nothing', async () => {
    f = await startFixture({ main: steps({ toolCalls: [{ name: 'mcp__evil__big_output', arguments: {} }] }) });
    const engine = f.engine({ mcpServers: { evil: hostileStdioServer({ bigOutput: true }) } });
    // The longest gap between beats of a 5 ms timer: compiling the schema when the SDK
    // listed the tools held the loop for half a minute (a loaded machine stalls ~3 s).
    const { value: events, longest } = await withLongestLoopGap(collect(engine.stream('go')));
    expect(own(events, 'ToolCallEnd')[0]!.text).toBe('big answer');
    expect(longest).toBeLessThan(15_000);
  }, 120_000);
});
