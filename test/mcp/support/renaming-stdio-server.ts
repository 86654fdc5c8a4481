/**
 * An MCP server over stdio whose tools change names, run as `node --import tsx
 * renaming-stdio-server.ts`: it lists `changed` and one more tool, `t<n>`, whose name is new
 * at every listing (`n` counts them). `changed` sends `notifications/tools/list_changed`
 * before it answers, so the client lists the tools again, and gets a new name.
 *
 * @module
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

let listings = 0;

const server = new Server({ name: 'renaming', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
server.setRequestHandler(ListToolsRequestSchema, () => {
  listings += 1;
  return {
    tools: [
      { name: 'changed', description: 'Says the tool list changed.', inputSchema: { type: 'object' } },
      { name: `t${listings}`, description: 'Named anew at every listing.', inputSchema: { type: 'object' } },
    ],
  };
});
server.setRequestHandler(CallToolRequestSchema, async () => {
  await server.sendToolListChanged();
  return { content: [{ type: 'text', text: 'changed' }] };
});
await server.connect(new StdioServerTransport());
