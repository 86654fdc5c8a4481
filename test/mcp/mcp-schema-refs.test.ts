import { describe, expect, it } from 'vitest';
import { collect, own } from '../support/collect-events.js';
import { turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps } from '../support/delegation-script.js';
import { refsStdioServer } from './support/mcp-configs.js';

const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

const call = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });

// An MCP server's input schema whose `$ref` loops in place was offered, and each call's check
// overflowed the stack (some 300 ms of a core) before failing; one with a URL `$ref` failed
// to compile at every call. Neither tool could ever be called. An output schema that loops
// failed every call of its tool the same way, when the client checked the answer.
describe('an MCP server (a real one over stdio) listing tools whose schemas have $refs', () => {
  it('leaves out each tool whose input schema loops or points at a URL, with a warning naming the server, the tool and the $ref; its other tools work', async () => {
    f = await startFixture({
      main: steps(
        call('mcp__refs__tree', { title: 'trip', steps: [{ title: 'pack', steps: [{ title: '' }] }] }),
        call('mcp__refs__tree', { title: 'trip', steps: [{ title: 'pack', steps: [{ title: 'socks' }] }] }),
        call('mcp__refs__loop_output'),
        call('mcp__refs__echo'),
        { text: 'done' },
      ),
    });
    const engine = f.engine({ mcpServers: { refs: refsStdioServer() } });
    const events = await collect(engine.stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
    const offered = turnOf(f.server.requests[0]!).toolNames.filter((n) => n.startsWith('mcp__refs__')).sort();
    expect(offered).toEqual(['mcp__refs__echo', 'mcp__refs__loop_output', 'mcp__refs__tree']);
    const skipped = own(events, 'Warning').filter((w) => w.code === 'mcp-tool-skipped').map((w) => w.message);
    expect(skipped).toEqual([
      expect.stringMatching(/^MCP server "refs" offers mcp__refs__self_ref with an input schema that cannot be checked against: its \$ref "#" comes back to itself .*; it is left out\.$/),
      expect.stringMatching(/^MCP server "refs" offers mcp__refs__defs_loop with an input schema that cannot be checked against: its \$ref "#\/\$defs\/[ab]" comes back to itself .*; it is left out\.$/),
      expect.stringMatching(/^MCP server "refs" offers mcp__refs__remote_ref with an input schema that cannot be checked against: its \$ref "http:\/\/127\.0\.0\.1:9\/schema\.json" .*no URL is fetched.*; it is left out\.$/),
    ]);
    const ends = own(events, 'ToolCallEnd').map((e) => e.text);
    // The local $refs are checked (the bad title, four levels down, never reaches the server).
    expect(ends[0]).toMatch(/^ERROR: .*"steps\.0\.steps\.0\.title" must NOT have fewer than 1 characters/);
    // The output schema that loops checks nothing: the answer is taken as it is.
    expect(ends.slice(1)).toEqual(['tree ran', 'loop_output ran', 'echo ran']);
  }, 60_000);
});
