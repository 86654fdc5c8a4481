import { afterEach, describe, expect, it } from 'vitest';
import { McpServers } from '../../src/mcp/mcp-servers.js';
import { junkServer } from './support/junk-server.js';

let servers: McpServers | undefined;
afterEach(async () => {
  await servers?.close();
  servers = undefined;
});

/** What a run that may use every tool of the one server `junk` (in `mode`) gets. */
async function runStart(mode: string) {
  servers = new McpServers({ junk: junkServer(mode) }, process.cwd());
  return servers.toolsFor({ names: [], select: { servers: () => true, keep: (names) => names } });
}

// The server's error went whole into the warning of every run that needed it: 5 MB of message.
describe('an MCP server failing its start with a huge message', () => {
  it('answering initialize with a 5 MB error: the warning says so in at most about 2,000 characters, its start and end kept', async () => {
    const { tools, warnings } = await runStart('init-error');
    expect(tools).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.code).toBe('mcp-server-failed');
    expect(warnings[0]!.message).toMatch(/^MCP server "junk" failed to start: MCP error -32000: nooo.* characters cut .*ooope\. In this run its tools are not available/s);
    expect(warnings[0]!.message.length).toBeLessThan(2_200);
  }, 60_000);
});

// The SDK's list of every problem of 50,000 malformed tools (19 MB of JSON) went whole into
// the warning of every run; now each tool is checked on its own, and a few warnings say so.
describe('an MCP server listing 50,000 malformed tools', () => {
  it('starts with none offered: ten warnings name the first ten, one counts the others looked at', async () => {
    const { tools, warnings } = await runStart('invalid');
    expect(tools).toEqual([]);
    expect(warnings.map((w) => w.code)).toEqual(Array.from({ length: 11 }, () => 'mcp-tool-skipped'));
    expect(warnings[0]!.message).toMatch(/^MCP server "junk" lists a malformed tool, one whose name is the number 0 \(number 1 of its list\): name: .*string.*; it is left out\.$/);
    expect(warnings[10]!.message).toBe('MCP server "junk" lists 4086 more malformed tools among the 4096 entries looked at, not named here; they are left out too.');
    expect(warnings.every((w) => w.message.length < 400)).toBe(true);
  }, 60_000);
});

// `tools.push(...page)` with 200,000 tools overflowed the stack: the start failed with
// "Maximum call stack size exceeded", and the server's tools were never offered.
describe('an MCP server listing 200,000 tools in one page', () => {
  it('starts, offers its first 256 and warns that the rest are left out', async () => {
    const { tools, warnings } = await runStart('many');
    expect(tools.map((t) => t.name).slice(0, 2)).toEqual(['mcp__junk__t0', 'mcp__junk__t1']);
    expect(tools).toHaveLength(256);
    expect(warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^MCP server "junk" lists more than 256 tools; only its first 256 are offered/)]);
  }, 60_000);
});
