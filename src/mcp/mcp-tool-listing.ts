import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject } from '../events/json.js';
import { describeValue } from '../validation/describe-value.js';
import type { McpSdk } from './mcp-sdk.js';
import { malformedTools } from './mcp-malformed-tools.js';
import { measuredJson } from './mcp-json-size.js';
import { cappedDescription, MCP_MAX_TOOLS, MCP_SCHEMA_MAX_BYTES, oversizedSchema } from './mcp-tool-limits.js';
import { MAX_JSON_DEPTH } from '../validation/json-depth.js';

/** The most pages of one listing asked for. */
const MAX_PAGES = 100;
// The most tools of a listing kept: those offered (MCP_MAX_TOOLS), with room for some left
// out (duplicate names, oversized schemas). One 10 MiB page may hold 200,000 tiny ones.
const MAX_LISTED = 4 * MCP_MAX_TOOLS;
// The most entries of a listing looked at, well formed or not: each is checked against the
// SDK's schema, and a page of 200,000 malformed ones must not cost that many checks.
const MAX_EXAMINED = 4 * MAX_LISTED;

/**
 * The most bytes (their JSON, UTF-8) of the entries of one listing looked at, across its
 * pages; past it no further page is asked for, the tools so far are kept, and a warning says
 * so. 100 pages of one tool each, each page just under the 10 MiB a message may hold, were
 * all kept whole: some 958 MiB held after the start. What is offered of a server's tools is
 * 256 KiB at most; this leaves room for all a sane server lists.
 */
export const MCP_LISTING_MAX_BYTES = 16 * 1024 * 1024;
// What an entry nesting deeper than any JSON from outside may is counted as: the walk that
// measures it stops there (each level would hold a frame), and what it holds is left out
// as it is kept (`keptTool`), an input schema that deep included.
const TOO_DEEP_BYTES = MCP_SCHEMA_MAX_BYTES;

/**
 * A tool as a listing keeps it: what later code reads only (its name, title, description,
 * input and output schemas; annotations, `_meta` and any other field dropped), its
 * description cut as it is offered ({@link cappedDescription}), and a schema over its limit
 * ({@link oversizedSchema}) dropped at once: an input schema's verdict kept in its place, an
 * output schema (which then checks nothing) left as `{ type: 'object' }`.
 */
export type McpListedTool = Pick<McpToolInfo, 'name' | 'title' | 'description' | 'inputSchema' | 'outputSchema'> & {
  /** Why its input schema was dropped as it was listed (`oversizedSchema`'s words); the tool is then left out. */
  readonly inputSchemaTooLarge?: string;
};

/** A server's tools as listed: the well-formed ones kept, and a message for those left out as malformed. */
export interface McpListing {
  /** Its well-formed tools, in its order, as kept: at most 1,024, no further than the page that passes MCP_MAX_TOOLS or MCP_LISTING_MAX_BYTES. */
  readonly tools: readonly McpListedTool[];
  /** Why malformed tools were left out (each of the first few named, the rest counted), and that the listing was cut at MCP_LISTING_MAX_BYTES. */
  readonly leftOut: readonly string[];
}

/**
 * Every page of the server's tools, each asked for with what `timeLeft` says is left of the
 * listing's time. The SDK's own `listTools` checks a whole page against its schema, so one
 * malformed tool (an input schema that is no object, a name that is no string) failed the
 * listing and so the server's start: each page is read as a page whatever its items, and
 * each item checked on its own against the SDK's tool schema. A page whose `tools` is no
 * list fails the listing, saying so. Each entry is measured (stopping at what is left of
 * {@link MCP_LISTING_MAX_BYTES}) before it is checked, and each tool trimmed as it is kept
 * ({@link McpListedTool}), so a listing costs bounded memory and time whatever is sent.
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
  const tools: McpListedTool[] = [];
  const malformed = malformedTools(server);
  let examined = 0;
  let left = MCP_LISTING_MAX_BYTES;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && left >= 0; page++) {
    const request = cursor === undefined ? { method: 'tools/list' as const } : { method: 'tools/list' as const, params: { cursor } };
    const answer = await client.request(request, sdk.PaginatedResultSchema, { timeout: timeLeft() });
    const listed = answer['tools'];
    if (!Array.isArray(listed)) {
      throw new Error(`its "tools" is ${listed === undefined ? 'missing' : describeValue(listed)}, where a list of tools belongs`);
    }
    // Indexed, not spread or sliced: a page may hold 200,000 entries.
    for (let i = 0; i < listed.length && tools.length < MAX_LISTED && examined < MAX_EXAMINED; i++, examined++) {
      const measure = measuredJson(listed[i], left, MAX_JSON_DEPTH + 1);
      left -= 'bytes' in measure ? measure.bytes : measure.over === 'depth' ? TOO_DEEP_BYTES : left + 1;
      if (left < 0) break;
      const checked = sdk.ToolSchema.safeParse(listed[i]);
      if (checked.success) tools.push(keptTool(checked.data));
      else malformed.add(listed[i], examined + 1, checked.error.issues);
    }
    cursor = answer.nextCursor;
    // Past the most that are offered, further pages would only cost time and memory.
    if (cursor === undefined || tools.length > MCP_MAX_TOOLS || examined >= MAX_EXAMINED) break;
  }
  const leftOut = malformed.messages(examined);
  return { tools, leftOut: left < 0 ? [...leftOut, tooMuch(server, tools.length, examined)] : leftOut };
}

/** The warning for a listing cut at {@link MCP_LISTING_MAX_BYTES}: what was kept, and what to do. */
function tooMuch(server: string, kept: number, examined: number): string {
  const max = `${MCP_LISTING_MAX_BYTES / 1024 / 1024} MiB`;
  return `MCP server "${server}" lists tools that come to more than ${max} (their JSON, across its pages), so rxharness stopped reading its listing there: the ${kept} well-formed tools among the first ${examined} entries are kept, the rest are left out; have the server list fewer or smaller tools (descriptions, schemas, annotations).`;
}

/** A tool as it is kept (see {@link McpListedTool}): a listing's copy of what later code reads, bounded. */
function keptTool(info: McpToolInfo): McpListedTool {
  const { name, title, description, inputSchema, outputSchema } = info;
  const tooLarge = oversizedSchema(inputSchema as JsonObject);
  // Cut as the offer cuts them (after trimming, as the offer does), so what is kept is what may be offered.
  const kept: { -readonly [K in keyof McpListedTool]: McpListedTool[K] } = { name, inputSchema: tooLarge === undefined ? inputSchema : { type: 'object' } };
  if (title !== undefined) kept.title = cappedDescription(title);
  if (description !== undefined) kept.description = cappedDescription(description.trim());
  if (tooLarge !== undefined) kept.inputSchemaTooLarge = tooLarge;
  // One too large checks nothing (`mcpOutputValidator`); an empty schema checks as much, and the tool still owes structured content.
  if (outputSchema !== undefined) kept.outputSchema = oversizedSchema(outputSchema as JsonObject) === undefined ? outputSchema : { type: 'object' };
  return kept;
}
