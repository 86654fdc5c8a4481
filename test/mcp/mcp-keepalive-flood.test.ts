import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../support/closed-after-each.js';
import { connectionPerTest } from './support/connection-per-test.js';
import { answeredHandshake, mcpHttpServer, replyResult, type McpHttpServer, type McpMessage } from './support/mcp-http-server.js';

const open = closedAfterEach<{ server: McpHttpServer }>(['server']);
// Registered after the server's afterEach, so it runs first: the connection closes before its server.
const mcp = connectionPerTest();

/** Writes `chunk` each time the socket has room, until it closes. */
function pour(res: ServerResponse, chunk: string): void {
  const more = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', more);
  };
  more();
}

/** An MCP server (one tool, `echo`) whose event stream (the GET) is `stream` written once, or poured for ever. */
async function streaming(stream: string, forever: boolean): Promise<McpHttpServer> {
  return mcpHttpServer((req, res, body) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return forever ? pour(res, stream) : void res.write(stream);
    }
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const message = JSON.parse(body) as McpMessage;
    if (answeredHandshake(res, message, 'keepalive')) return;
    if (message.method === 'tools/list') return replyResult(res, message, { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] });
    replyResult(res, message, { content: [{ type: 'text', text: 'echo ran' }] });
  });
}

// Comments and empty events end an event, so the bound on one event's bytes never came: a
// stream of nothing else, as fast as the socket took it, kept the engine parsing at half a
// core or more, and the connection stayed up for as long as the server liked.
describe('an MCP server over HTTP whose event stream', () => {
  it.each([
    ['keep-alive comments', ': keep-alive\n\n'],
    ['empty lines', '\n\n\n\n'],
  ])('sends nothing but %s, as fast as it can: the connection is closed, saying why', async (_what, flood) => {
    const server = (open.server = await streaming(flood.repeat(1_000), true));
    const c = await mcp.connect('web', { url: server.url });
    // The stream opens once the start is done, or while the tools are listed.
    await expect.poll(() => c.running, { timeout: 30_000 }).toBe(false);
    expect(c.problem).toMatch(/its event stream ended more than 1000 events without data \(keep-alive comments\) within 1 s, so rxharness closed the connection/);
  }, 60_000);

  it('sends a few keep-alive comments, and events with data: the connection stays, and calls work', async () => {
    const events = `${': keep-alive\n\n'.repeat(50)}event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}\n\n`;
    const server = (open.server = await streaming(events.repeat(10), false));
    const connection = await mcp.connect('web', { url: server.url });
    expect(connection.problem).toBeUndefined();
    await expect(connection.call('echo', {}, new AbortController().signal)).resolves.toMatchObject({ content: [{ text: 'echo ran' }] });
    expect(connection.running).toBe(true);
  }, 60_000);
});
