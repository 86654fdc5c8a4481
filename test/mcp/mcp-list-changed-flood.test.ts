import { describe, expect, it } from 'vitest';
import { collect, own } from '../support/collect-events.js';
import type { DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps } from '../support/delegation-script.js';
import { floodingStdioServer } from './support/mcp-configs.js';

const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

const call = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });

describe('an MCP server flooding notifications/tools/list_changed', () => {
  it('is listed one request at a time, a few times, not once per notification at once', async () => {
    f = await startFixture({ main: steps(call('mcp__flood__flood', { n: 2_000 }), call('mcp__flood__lists')) });
    const engine = f.engine({ mcpServers: { flood: floodingStdioServer() } });
    const ends = own(await collect(engine.stream('go')), 'ToolCallEnd');
    expect(ends[0]!.text).toBe('sent 2000');
    // One listing at a time, a few in all: not one per notification, 2,000 at once.
    const [, listed, atOnce] = /^listed (\d+) times, at most (\d+) at once$/.exec(ends[1]!.text) ?? [];
    expect(Number(atOnce)).toBe(1);
    expect(Number(listed)).toBeGreaterThanOrEqual(2);
    expect(Number(listed)).toBeLessThan(100);
  }, 60_000);
});
