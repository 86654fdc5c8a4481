import { afterEach, describe, expect, it } from 'vitest';
import { MCP_LISTING_MAX_PATTERNS } from '../../src/mcp/mcp-schema-patterns.js';
import { McpServers } from '../../src/mcp/mcp-servers.js';

// A stdio server listing 40 tools of 20 distinct patterns each (800 in all; `p0` also holds
// one RE2 cannot run), then `again`, whose patterns are all `p0`'s.
const SERVER = `
import { createInterface } from 'node:readline';
const schema = (t) => ({ type: 'object', properties: { s: { type: 'string', pattern: t === 0 ? '^(?!tmp)' : '^x$' } }, patternProperties: Object.fromEntries(Array.from({ length: 20 }, (_, i) => ['^k' + t + '_' + i + '$', {}])) });
const tools = [...Array.from({ length: 40 }, (_, t) => ({ name: 'p' + t, inputSchema: schema(t) })), { name: 'again', inputSchema: schema(0) }];
const answer = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') return answer(m.id, { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'h', version: '1' } });
  if (m.method === 'tools/list') return answer(m.id, { tools });
  answer(m.id, {});
});
`;

let servers: McpServers | undefined;
afterEach(async () => {
  await servers?.close();
  servers = undefined;
});

// Every distinct pattern of every tool was RE2-compiled when a listing was made into tools,
// to find those not enforced: 26 tools of 500 patterns held the event loop for 18 s.
describe('a server listing tools of many regexes', () => {
  it(`has at most ${MCP_LISTING_MAX_PATTERNS} distinct patterns compiled: the tools past them are left out, each with a warning`, async () => {
    servers = new McpServers({ h: { command: process.execPath, args: ['--input-type=module', '-e', SERVER] } }, process.cwd());
    const { tools, warnings } = await servers.toolsFor({ names: [], select: { servers: () => true, keep: (n) => n } });
    // 21 patterns each (their `^x$` shared, `p0`'s own instead): 24 tools come to 482, a 25th would pass 500.
    const offered = tools.map((t) => t.name);
    expect(offered).toEqual([...Array.from({ length: 24 }, (_, t) => `mcp__h__p${t}`), 'mcp__h__again']);
    const skipped = warnings.filter((w) => w.code === 'mcp-tool-skipped').map((w) => w.message);
    // 16 left out: the first ten named, the other six counted (a listing's warnings are capped per code).
    expect(skipped).toHaveLength(11);
    expect(skipped[10]).toBe('MCP server "h" has 6 more mcp-tool-skipped warnings about the tools it lists, not given one by one here (the first 10 are).');
    expect(skipped[0]).toBe(
      'MCP server "h" offers mcp__h__p24 with regexes past the 500 distinct ones of its listing that are compiled when it is listed (each costs up to some milliseconds of the event loop); it is left out.',
    );
    // The patterns judged are still warned of, for `again` too (judged once, told twice).
    expect(warnings.filter((w) => w.code === 'mcp-pattern-unenforced').map((w) => w.message)).toEqual([
      expect.stringContaining('in the schema of mcp__h__p0 is not checked here'),
      expect.stringContaining('in the schema of mcp__h__again is not checked here'),
    ]);
  });
});
