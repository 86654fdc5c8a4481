import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  AudioContentSchema,
  CallToolResultSchema,
  EmbeddedResourceSchema,
  ErrorCode,
  ImageContentSchema,
  McpError,
  PaginatedResultSchema,
  ResourceLinkSchema,
  ResultSchema,
  TextContentSchema,
  ToolSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** The SDK's schema of each content block type this version knows, by its `type`. */
export interface McpContentSchemas {
  readonly text: typeof TextContentSchema;
  readonly image: typeof ImageContentSchema;
  readonly audio: typeof AudioContentSchema;
  readonly resource_link: typeof ResourceLinkSchema;
  readonly resource: typeof EmbeddedResourceSchema;
}

/** The parts of `@modelcontextprotocol/sdk` a connection uses. */
export interface McpSdk {
  readonly Client: typeof Client;
  readonly McpError: typeof McpError;
  readonly ErrorCode: typeof ErrorCode;
  /** A page of a listing, whatever its items: what `tools/list` is read with, so one malformed tool fails only itself. */
  readonly PaginatedResultSchema: typeof PaginatedResultSchema;
  /** One tool of a listing, checked on its own. */
  readonly ToolSchema: typeof ToolSchema;
  /** Any object: what a `tools/call` answer is read with, so a malformed one fails only its call (`mcp-call-result.ts`). */
  readonly AnyResultSchema: ReturnType<typeof ResultSchema.omit<{ _meta: true }>>;
  /** A call's result, checked without its content, whose blocks are checked one by one. */
  readonly CallToolResultSchema: typeof CallToolResultSchema;
  /** The content blocks this version of the SDK knows; one of another type is kept as it came. */
  readonly ContentSchemas: McpContentSchemas;
  readonly StdioClientTransport: typeof StdioClientTransport;
  readonly StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
}

let loading: Promise<McpSdk> | undefined;

/**
 * Loads the MCP SDK the first time a server starts, once per process. Importing it with the
 * package would cost every user about 15 MiB of memory and tens of milliseconds of start-up,
 * whether or not they configure an MCP server (most do not).
 *
 * @example
 * ```ts
 * const sdk = await loadMcpSdk();
 * const client = new sdk.Client({ name: 'rxharness', version: '1.0.0' });
 * ```
 */
export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]).then(([client, types, stdio, http]) => ({
    Client: client.Client,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
    PaginatedResultSchema: types.PaginatedResultSchema,
    ToolSchema: types.ToolSchema,
    AnyResultSchema: types.ResultSchema.omit({ _meta: true }),
    CallToolResultSchema: types.CallToolResultSchema,
    ContentSchemas: {
      text: types.TextContentSchema,
      image: types.ImageContentSchema,
      audio: types.AudioContentSchema,
      resource_link: types.ResourceLinkSchema,
      resource: types.EmbeddedResourceSchema,
    },
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
  }));
  return loading;
}
