/**
 * An MCP server over stdio, run as `node --import tsx dialect-stdio-server.ts`, on the SDK's
 * low-level `Server` (nothing rewrites what it lists): one tool, `spell`, whose input schema
 * names its dialect as JSON Schema 2020-12 (`$schema`), as servers built on newer schema
 * libraries send. A call answers `spell got <arguments as JSON>`.
 *
 * @module
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const inputSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { word: { type: 'string', minLength: 2 } },
  required: ['word'],
};

const server = new Server({ name: 'dialect', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'spell', description: 'Spells a word.', inputSchema }] }));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: 'text', text: `${request.params.name} got ${JSON.stringify(request.params.arguments ?? {})}` }],
}));
await server.connect(new StdioServerTransport());
