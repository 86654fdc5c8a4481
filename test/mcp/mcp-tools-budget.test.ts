import { afterEach, describe, expect, it } from 'vitest';
import { McpServers } from '../../src/mcp/mcp-servers.js';
import { MCP_SERVER_TOOLS_MAX_BYTES, offeredBytes } from '../../src/mcp/mcp-tool-limits.js';
import { hostileStdioServer } from './support/mcp-configs.js';

let servers: McpServers | undefined;
afterEach(async () => {
  await servers?.close();
  servers = undefined;
});

// Each tool offered is sent with every model request: 256 tools of 50 KiB schemas put 13 MB
// of tools in each, with no warning. The bound is on their sum, in the server's order.
describe('an MCP server listing 12 tools whose input schemas are about 50 KiB each', () => {
  it('offers those that fit in 256 KiB, in its order, and leaves the rest out with a warning', async () => {
    servers = new McpServers({ wide: hostileStdioServer({ wide: 12 }) }, process.cwd());
    const { tools, warnings } = await servers.toolsFor({ names: [], select: { servers: () => true, keep: (names) => names } });
    const wide = tools.map((t) => t.name).filter((n) => n.startsWith('mcp__wide__wide_'));
    // A prefix of its wide tools: more than none, fewer than all.
    expect(wide.length).toBeGreaterThan(2);
    expect(wide.length).toBeLessThan(12);
    expect(wide).toEqual(Array.from({ length: wide.length }, (_, i) => `mcp__wide__wide_${i}`));
    expect(tools.reduce((sum, t) => sum + offeredBytes(t), 0)).toBeLessThanOrEqual(MCP_SERVER_TOOLS_MAX_BYTES);
    const skipped = warnings.filter((w) => w.code === 'mcp-tool-skipped').map((w) => w.message);
    expect(skipped).toEqual([
      expect.stringMatching(
        new RegExp(`^MCP server "wide" lists tools whose descriptions and input schemas come to more than 256 KiB \\(each is sent to the model with every request\\); ${tools.length} are offered, the ${12 - wide.length} from number \\d+ of its list on are left out\\.$`),
      ),
    ]);
  }, 60_000);
});
