import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { describeValue } from '../validation/describe-value.js';
import type { McpSdk } from './mcp-sdk.js';
import { malformedTools } from './mcp-malformed-tools.js';
import { MCP_MAX_TOOLS } from './mcp-tool-limits.js';

/** The most pages of one listing asked for. */
const MAX_PAGES = 100;
// The most tools of a listing kept: those offered (MCP_MAX_TOOLS), with room for some left
// out (duplicate names, oversized schemas). One 10 MiB page may hold 200,000 tiny ones.
const MAX_LISTED = 4 * MCP_MAX_TOOLS;
// The most entries of a listing looked at, well formed or not: each is checked against the
// SDK's schema, and a page of 200,000 malformed ones must not cost that many checks.
const MAX_EXAMINED = 4 * MAX_LISTED;

/** A server's tools as listed: the well-formed ones kept, and a message for those left out as malformed. */
export interface McpListing {
  /** Its well-formed tools, in its order: at most 1,024, no further than the page that passes MCP_MAX_TOOLS. */
  readonly tools: readonly McpToolInfo[];
  /** Why malformed tools were left out: each of the first few named, the rest counted. */
  readonly leftOut: readonly string[];
}

/**
 * Every page of the server's tools, each asked for with what `timeLeft` says is left of the
 * listing's time. The SDK's own `listTools` checks a whole page against its schema, so one
 * malformed tool (an input schema that is no object, a name that is no string) failed the
 * listing and so the server's start: each page is read as a page whatever its items, and
 * each item checked on its own against the SDK's tool schema. A page whose `tools` is no
 * list fails the listing, saying so.
 *
 * The client's own cache of output schemas (filled by its `listTools` only) stays empty:
 * the connection checks results against the listed tools' output schemas itself
 * (`mcp-output-check.ts`).
 *
 * @example
 * ```ts
 * const { tools, leftOut } = await listMcpTools(client, sdk, 'fs', () => 30_000);
 * ```
 */
export async function listMcpTools(client: Client, sdk: McpSdk, server: string, timeLeft: () => number): Promise<McpListing> {
  if (!client.getServerCapabilities()?.tools) return { tools: [], leftOut: [] };
  const tools: McpToolInfo[] = [];
  const malformed = malformedTools(server);
  let examined = 0;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const request = cursor === undefined ? { method: 'tools/list' as const } : { method: 'tools/list' as const, params: { cursor } };
    const answer = await client.request(request, sdk.PaginatedResultSchema, { timeout: timeLeft() });
    const listed = answer['tools'];
    if (!Array.isArray(listed)) {
      throw new Error(`its "tools" is ${listed === undefined ? 'missing' : describeValue(listed)}, where a list of tools belongs`);
    }
    // Indexed, not spread or sliced: a page may hold 200,000 entries.
    for (let i = 0; i < listed.length && tools.length < MAX_LISTED && examined < MAX_EXAMINED; i++, examined++) {
      const checked = sdk.ToolSchema.safeParse(listed[i]);
      if (checked.success) tools.push(checked.data);
      else malformed.add(listed[i], examined + 1, checked.error.issues);
    }
    cursor = answer.nextCursor;
    // Past the most that are offered, further pages would only cost time and memory.
    if (cursor === undefined || tools.length > MCP_MAX_TOOLS || examined >= MAX_EXAMINED) break;
  }
  return { tools, leftOut: malformed.messages(examined) };
}
