import { describe, expect, it } from 'vitest';
import type { McpConnection } from '../../src/mcp/mcp-connection.js';
import { collect, own } from '../support/collect-events.js';
import { turnOf } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { connectionPerTest } from './support/connection-per-test.js';
import { malformedStdioServer } from './support/mcp-configs.js';

const startFixture = delegationFixturePerTest();
const mcp = connectionPerTest();

const call = (name: string) => ({ toolCalls: [{ name, arguments: {} }] });
const started = (mode: Parameters<typeof malformedStdioServer>[0]): Promise<McpConnection> => mcp.connect('bad', malformedStdioServer(mode));

// The SDK's client checked a whole tools/list page against its schema: one malformed tool
// among them failed the listing, and so the server's start, every well-formed tool lost.
describe('an MCP server (a real one over stdio) listing malformed tools', () => {
  it('offers every well-formed tool, and leaves each malformed one out with a warning naming it (escaped, cut) and what is wrong', async () => {
    const f = await startFixture({ main: steps(call('mcp__bad__echo'), call('mcp__bad__last'), call('mcp__bad__no_structured'), { text: 'done' }) });
    const engine = f.engine({ mcpServers: { bad: malformedStdioServer('mixed') } });
    const events = await collect(engine.stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
    const offered = turnOf(f.server.requests[0]!).toolNames.filter((n) => n.startsWith('mcp__bad__'));
    expect([...offered].sort()).toEqual(['mcp__bad__echo', 'mcp__bad__last', 'mcp__bad__no_structured']);
    const warnings = own(events, 'Warning');
    expect(warnings.filter((w) => w.code !== 'mcp-tool-skipped')).toEqual([]);
    const skipped = warnings.map((w) => w.message);
    expect(skipped).toEqual([
      expect.stringMatching(/^MCP server "bad" lists a malformed tool, "bad_schema" \(number 2 of its list\): inputSchema\.type: .*"object".*; it is left out\.$/),
      expect.stringMatching(/^MCP server "bad" lists a malformed tool, one whose name is the number 42 \(number 3 of its list\): name: .*string/),
      expect.stringMatching(/^MCP server "bad" lists a malformed tool, one with no name \(number 4 of its list\): name: /),
      expect.stringMatching(/^MCP server "bad" lists a malformed tool, the string "a string" where a tool belongs \(number 5 of its list\): .*object/),
      expect.stringMatching(/^MCP server "bad" lists a malformed tool, "evil\\u001b\[31m\\nx+ \[\.\.\. \d+ characters cut \.\.\.\] x+" \(number 6 of its list\): inputSchema: /),
    ]);
    // The control characters of the name are escaped, and its 5,000 characters cut.
    expect(skipped[4]).not.toMatch(/[\u0000-\u001f]/);
    expect(skipped[4]!.length).toBeLessThan(600);
    // The output schema of a kept tool is still held to: an answer without structured content fails.
    expect(own(events, 'ToolCallEnd').map((e) => e.text)).toEqual([
      'echo ran',
      'last ran',
      'ERROR: MCP server "bad" answered, but the tool has an output schema, yet its result holds no structured content',
    ]);
  }, 60_000);

  it('of 10,000 tools half malformed keeps the first 1,024 well-formed ones, names the first ten malformed and counts the rest', async () => {
    const c = await started('many');
    expect(c.problem).toBeUndefined();
    expect(c.tools).toHaveLength(1_024);
    expect(c.tools.every((t, i) => t.name === `tool_${2 * i}`)).toBe(true);
    // Entries 1 to 2,047 were looked at: 1,024 kept, 1,023 malformed; the rest are never checked.
    expect(c.malformed).toHaveLength(11);
    expect(c.malformed[0]).toMatch(/^MCP server "bad" lists a malformed tool, "broken_1" \(number 2 of its list\): inputSchema: .*object/);
    expect(c.malformed[9]).toMatch(/"broken_19" \(number 20 of its list\)/);
    expect(c.malformed[10]).toBe('MCP server "bad" lists 1013 more malformed tools among the 2047 entries looked at, not named here; they are left out too.');
    await expect(c.call('tool_4', {}, new AbortController().signal)).resolves.toMatchObject({ content: [{ text: 'tool_4 ran' }] });
  }, 60_000);

  it('whose tools are no list fails the start, saying what is there', async () => {
    const c = await started('not-array');
    expect(c.running).toBe(false);
    expect(c.problem).toMatch(/^failed to start: its tools\/list answer failed or could not be read: its "tools" is the string "none", where a list of tools belongs/);
  }, 60_000);

  it('whose second page holds no list fails the start the same way', async () => {
    const c = await started('second-page');
    expect(c.running).toBe(false);
    expect(c.problem).toMatch(/^failed to start: its tools\/list answer failed or could not be read: its "tools" is a mapping, where a list of tools belongs/);
  }, 60_000);
});
