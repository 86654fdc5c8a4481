import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServers } from '../../src/mcp/mcp-servers.js';

const SERVER = fileURLToPath(new URL('./support/m8-bulky-stdio-server.mjs', import.meta.url));
const ALL = { names: [], select: { servers: () => true, keep: (names: readonly string[]) => names } };
let servers: McpServers | undefined;
afterEach(async () => {
  await servers?.close();
  servers = undefined;
});

const listed = async (mode: string) => {
  servers = new McpServers({ w: { command: process.execPath, args: [SERVER], env: { M8_MODE: mode } } }, process.cwd());
  return servers.toolsFor(ALL);
};

// Each warning of a listing goes to every run that needs the server, each child's too: 1,024
// tools of one name gave 1,023 warnings in every run, five children 6,138 in one.
describe('an MCP server listing 300 tools all named "dup"', () => {
  it('offers the first, names the first ten left out, and counts the rest in one warning, in every run', async () => {
    const first = await listed('dup');
    expect(first.tools.map((t) => t.name)).toEqual(['mcp__w__dup']);
    expect(first.warnings).toHaveLength(11);
    expect(first.warnings.slice(0, 10).every((w) => w.code === 'mcp-tool-skipped' && w.message.includes('offers two tools named mcp__w__dup'))).toBe(true);
    expect(first.warnings[10]).toEqual({
      code: 'mcp-tool-skipped',
      message: 'MCP server "w" has 289 more mcp-tool-skipped warnings about the tools it lists, not given one by one here (the first 10 are).',
    });
    const again = await servers!.toolsFor(ALL);
    expect(again.warnings).toEqual(first.warnings);
  }, 60_000);
});

describe('an MCP server listing 250 tools of two patterns each that RE2 cannot run', () => {
  it('offers them all, warns of the first ten patterns, and counts the other 490 in one warning', async () => {
    const { tools, warnings } = await listed('pattern');
    expect(tools).toHaveLength(250);
    expect(warnings).toHaveLength(11);
    expect(warnings.map((w) => w.code)).toEqual(Array(11).fill('mcp-pattern-unenforced'));
    expect(warnings[0]!.message).toMatch(/^MCP server "w": the pattern "\^\(\?[=!][ab]0\)[xy]" in the schema of mcp__w__p0 is not checked here/);
    expect(warnings[10]!.message).toBe('MCP server "w" has 490 more mcp-pattern-unenforced warnings about the tools it lists, not given one by one here (the first 10 are).');
  }, 60_000);
});
