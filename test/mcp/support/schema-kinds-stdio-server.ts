/**
 * An MCP server over stdio, run as `node --import tsx schema-kinds-stdio-server.ts`, on the
 * SDK's low-level `Server` (nothing rewrites what it lists): one tool per schema of
 * `schema-kinds.ts` (`lookahead`, `invalid`, `costly`). A call answers `<name> got <arguments as JSON>`.
 *
 * @module
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { SCHEMA_KINDS } from './schema-kinds.js';

const tools = Object.entries(SCHEMA_KINDS).map(([name, inputSchema]) => ({ name, description: `Has the ${name} schema.`, inputSchema }));
const server = new Server({ name: 'kinds', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: 'text', text: `${request.params.name} got ${JSON.stringify(request.params.arguments ?? {})}` }],
}));
await server.connect(new StdioServerTransport());
