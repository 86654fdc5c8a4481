/**
 * An MCP server over stdio that floods its client with `notifications/tools/list_changed`,
 * run as `node --import tsx flooding-stdio-server.ts`. Its tool `flood` sends `n` of them
 * before it answers; `lists` answers how many `tools/list` requests the server has had and
 * how many it held at once (each takes 20 ms to answer, so requests sent together overlap;
 * stdio keeps order, so every request the flood caused before `lists` is counted).
 *
 * @module
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const tools = [
  { name: 'flood', description: 'Says the tool list changed `n` times.', inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
  { name: 'lists', description: 'How many times the tools were listed.', inputSchema: { type: 'object' } },
];
let lists = 0;
let pending = 0;
let most = 0;

const server = new Server({ name: 'flooding', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
server.setRequestHandler(ListToolsRequestSchema, async () => {
  lists += 1;
  most = Math.max(most, (pending += 1));
  await new Promise((resolve) => setTimeout(resolve, 20));
  pending -= 1;
  return { tools };
});
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === 'lists') return { content: [{ type: 'text', text: `listed ${lists} times, at most ${most} at once` }] };
  const n = Number(request.params.arguments?.['n'] ?? 0);
  for (let i = 0; i < n; i++) await server.sendToolListChanged();
  return { content: [{ type: 'text', text: `sent ${n}` }] };
});
await server.connect(new StdioServerTransport());
