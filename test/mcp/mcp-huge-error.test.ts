import { describe, expect, it } from 'vitest';
import { collect, own } from '../support/collect-events.js';
import type { DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps } from '../support/delegation-script.js';
import { MAX_MCP_RESULT_CHARS } from '../../src/mcp/mcp-result-text.js';
import { hostileStdioServer } from './support/mcp-configs.js';

const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

describe('an MCP server answering a call with a JSON-RPC error of 2 MB', () => {
  it('has its message cut like a result: the model reads its start and end, not 2 MB', async () => {
    f = await startFixture({ main: steps({ toolCalls: [{ name: 'mcp__evil__huge_error', arguments: {} }] }) });
    const engine = f.engine({ mcpServers: { evil: hostileStdioServer() } });
    const end = own(await collect(engine.stream('go')), 'ToolCallEnd')[0]!;
    expect(end.text).toMatch(/^ERROR: MCP server "evil" answered with an error: MCP error -32603: .*eee/);
    expect(end.text).toMatch(/END$/);
    expect(end.text).toContain('characters omitted');
    expect(end.text.length).toBeLessThan(MAX_MCP_RESULT_CHARS + 100);
    // What the model was sent next holds the cut text, not the 2 MB.
    expect(JSON.stringify(f.server.requests.at(-1)!.body).length).toBeLessThan(MAX_MCP_RESULT_CHARS * 2);
  }, 60_000);
});
