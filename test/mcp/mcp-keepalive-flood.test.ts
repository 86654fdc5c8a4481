import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConnection } from '../../src/mcp/mcp-connection.js';
import { answeredHandshake, mcpHttpServer, replyResult, type McpHttpServer, type McpMessage } from './support/mcp-http-server.js';

let connection: McpConnection | undefined;
let server: McpHttpServer | undefined;
afterEach(async () => {
  await connection?.close();
  await server?.close();
  connection = server = undefined;
});

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
    server = await streaming(flood.repeat(1_000), true);
    connection = new McpConnection('web', { url: server.url }, process.cwd());
    await connection.ensure();
    const c = connection;
    // The stream opens once the start is done, or while the tools are listed.
    await expect.poll(() => c.running, { timeout: 30_000 }).toBe(false);
    expect(c.problem).toMatch(/its event stream ended more than 1000 events without data \(keep-alive comments\) within 1 s, so rxharness closed the connection/);
  }, 60_000);

  it('sends a few keep-alive comments, and events with data: the connection stays, and calls work', async () => {
    const events = `${': keep-alive\n\n'.repeat(50)}event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}\n\n`;
    server = await streaming(events.repeat(10), false);
    connection = new McpConnection('web', { url: server.url }, process.cwd());
    await connection.ensure();
    expect(connection.problem).toBeUndefined();
    await expect(connection.call('echo', {}, new AbortController().signal)).resolves.toMatchObject({ content: [{ text: 'echo ran' }] });
    expect(connection.running).toBe(true);
  }, 60_000);
});
