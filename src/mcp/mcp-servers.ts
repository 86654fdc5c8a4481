import { quotedClip } from '../text/quoted-clip.js';
import type { Tool } from '../tools/tool.js';
import { McpConnection } from './mcp-connection.js';
import type { McpServerConfig } from './mcp-server-config.js';
import { patternJudge } from './mcp-schema-patterns.js';
import { listingWarnings } from './mcp-malformed-tools.js';
import { mcpTool } from './mcp-tool.js';
import type { McpListedTool } from './mcp-tool-listing.js';
import { MCP_MAX_TOOLS, MCP_SERVER_TOOLS_MAX_BYTES, offeredBytes } from './mcp-tool-limits.js';
import { mcpServerOf, mcpToolName } from './mcp-tool-name.js';

// The most of a server's own tool name a warning quotes, quotes and escapes included.
const QUOTED_NAME_CHARS = 80;

/** Something a run should be told about its MCP tools (it becomes a `Warning` event). */
export interface McpWarning {
  /**
   * `mcp-server-failed` (a server the run needed is not running), `mcp-tool-skipped` (a tool
   * left out: malformed, a duplicate name, an oversized schema), `mcp-pattern-unenforced` (a schema
   * `pattern` the linear-time regex engine cannot run, not checked) or `mcp-schema-invalid` (an
   * input schema ajv refuses: its calls are checked to be an object only).
   */
  readonly code: string;
  readonly message: string;
}

/** Which MCP tools an agent asks for when its run starts. */
export interface McpToolsRequest {
  /** Tools it holds by name (a child's, chosen from its parent's tools). */
  readonly names: readonly string[];
  /** For an agent whose MCP tools are chosen only now: the servers it may use, and which of their tools it keeps. */
  readonly select?: {
    readonly servers: (server: string) => boolean;
    readonly keep: (names: readonly string[]) => readonly string[];
  };
}

/** The MCP tools of one run, and what it should be told about them. */
export interface McpToolsAnswer {
  readonly tools: readonly Tool[];
  readonly warnings: readonly McpWarning[];
}

/**
 * The engine's MCP servers: each started when the first run that may use it starts (never
 * at construction), listed, and stopped by {@link McpServers.close}. A server that fails to
 * start, or stopped, is started again by the next run that needs it.
 *
 * @example
 * ```ts
 * const servers = new McpServers({ fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } }, workspace);
 * const { tools, warnings } = await servers.toolsFor({ names: [], select: { servers: () => true, keep: (n) => n } });
 * await servers.close();
 * ```
 */
export class McpServers {
  private readonly connections = new Map<string, McpConnection>();
  // Each server's tools, made once from its latest listing, which replaces the one before:
  // a tool it no longer lists (after list_changed, or a restart) is offered to no run, not
  // even a child holding its name, so a server renaming its tools cannot grow this.
  private readonly made = new Map<string, Made>();

  constructor(configs: Readonly<Record<string, McpServerConfig>>, workspace: string) {
    for (const [name, config] of Object.entries(configs)) this.connections.set(name, new McpConnection(name, config, workspace));
  }

  /** The server names. */
  get names(): readonly string[] {
    return [...this.connections.keys()];
  }

  /**
   * Starts the servers a run needs (those of `names`, and those `select` may use), then
   * answers its tools and a warning per needed server that is not running. Synchronous when
   * every needed server runs already; a promise that never rejects otherwise.
   */
  toolsFor(request: McpToolsRequest): McpToolsAnswer | Promise<McpToolsAnswer> {
    const needed = this.needed(request);
    const starts = needed.map((c) => c.ensure()).filter((p): p is Promise<void> => p !== undefined);
    if (starts.length === 0) return this.answer(request, needed);
    return Promise.all(starts).then(() => this.answer(request, needed));
  }

  /** Stops every server that was started, waiting until each has stopped. */
  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.close()));
  }

  private needed(request: McpToolsRequest): McpConnection[] {
    const servers = new Set(request.names.map(mcpServerOf));
    return [...this.connections.values()].filter((c) => servers.has(c.name) || (request.select?.servers(c.name) ?? false));
  }

  private answer(request: McpToolsRequest, needed: readonly McpConnection[]): McpToolsAnswer {
    const warnings: McpWarning[] = [];
    const offered: string[] = [];
    for (const connection of needed) {
      if (connection.problem !== undefined) {
        const known = connection.tools.length > 0 ? 'its tools fail until it runs again' : 'its tools are not available';
        warnings.push({
          code: 'mcp-server-failed',
          message: `MCP server "${connection.name}" ${connection.problem}. In this run ${known}; the next run starts it again.`,
        });
      }
      const { names, skipped } = this.make(connection);
      warnings.push(...skipped);
      offered.push(...names);
    }
    const chosen = new Set([...request.names, ...(request.select ? request.select.keep(offered) : [])]);
    const tools = [...chosen].map((name) => this.current(name)).filter((t): t is Tool => t !== undefined);
    return { tools, warnings };
  }

  /** The tool named `name` in its server's latest listing, if it is there. */
  private current(name: string): Tool | undefined {
    const server = mcpServerOf(name);
    return server === undefined ? undefined : this.made.get(server)?.tools.get(name);
  }

  /** A connection's current tools, made when it has listed them anew. */
  private make(connection: McpConnection): Made {
    const last = this.made.get(connection.name);
    if (last?.listing === connection.tools) return last;
    const made = makeTools(connection);
    this.made.set(connection.name, made);
    return made;
  }
}

/** Our tools for one listing of a server, their names in its order, and the warnings for those left out. */
interface Made {
  readonly listing: readonly McpListedTool[];
  readonly names: readonly string[];
  readonly tools: ReadonlyMap<string, Tool>;
  readonly skipped: readonly McpWarning[];
}

/** Makes our tools for a connection's current listing. */
function makeTools(connection: McpConnection): Made {
  const listing = connection.tools;
  const tools = new Map<string, Tool>();
  // First those the listing left out as malformed, each once per listing like the others
  // (capped as the listing was read); those of each tool after, capped per code.
  const skipped: McpWarning[] = connection.malformed.map((message) => ({ code: 'mcp-tool-skipped', message }));
  const told = listingWarnings(connection.name);
  // Why the tools past a bound were left out, told after those of each tool before it.
  let last: McpWarning | undefined;
  let bytes = 0;
  // One bound on the patterns compiled across the listing's tools, not one per tool.
  const judge = patternJudge();
  for (const [index, info] of listing.entries()) {
    if (tools.size === MCP_MAX_TOOLS) {
      last = tooMany(connection.name);
      break;
    }
    const name = mcpToolName(connection.name, info.name);
    if (tools.has(name)) {
      // The server's name, cut: it may be of any length.
      const message = `MCP server "${connection.name}" offers two tools named ${name} once made fit for a model; ${quotedClip(info.name, QUOTED_NAME_CHARS)} is left out.`;
      told.add({ code: 'mcp-tool-skipped', message });
      continue;
    }
    const { tool, warnings } = mcpTool(name, info, connection, judge);
    if (tool && (bytes += offeredBytes(tool)) > MCP_SERVER_TOOLS_MAX_BYTES) {
      last = tooLarge(connection.name, tools.size, index + 1, listing.length - index);
      break;
    }
    for (const warning of warnings) told.add(warning);
    if (tool) tools.set(name, tool);
  }
  return { listing, names: [...tools.keys()], tools, skipped: [...skipped, ...told.all(), ...(last ? [last] : [])] };
}

/** The warning for a server whose tools outgrow {@link MCP_SERVER_TOOLS_MAX_BYTES}: `offered` fit; the `left` from number `from` of its list on are left out. */
function tooLarge(server: string, offered: number, from: number, left: number): McpWarning {
  const max = `${MCP_SERVER_TOOLS_MAX_BYTES / 1024} KiB`;
  const message = `MCP server "${server}" lists tools whose descriptions and input schemas come to more than ${max} (each is sent to the model with every request); ${offered} are offered, the ${left} from number ${from} of its list on are left out.`;
  return { code: 'mcp-tool-skipped', message };
}

/** The warning for a server listing more than {@link MCP_MAX_TOOLS} tools. */
function tooMany(server: string): McpWarning {
  const message = `MCP server "${server}" lists more than ${MCP_MAX_TOOLS} tools; only its first ${MCP_MAX_TOOLS} are offered (each is sent to the model with every request), the rest are left out.`;
  return { code: 'mcp-tool-skipped', message };
}
