/**
 * A hostile MCP server over Streamable HTTP on 127.0.0.1, written by hand (no SDK): it starts
 * and lists no tools, and answers every `GET` (the event stream a client keeps open for the
 * server's messages) with an event asking for reconnects at once (`retry: 0`), then ends the
 * stream cleanly. The SDK's client takes that retry with no minimum and counts no attempt
 * for a clean end, so unguarded it reconnected in a tight loop for as long as it ran.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running retry-zero server. */
export interface RetryZeroHttpServer {
  readonly url: string;
  /** How many `GET`s (event streams opened) it has answered. */
  gets(): number;
  close(): Promise<void>;
}

/** Starts the server. */
export async function startRetryZeroHttpServer(): Promise<RetryZeroHttpServer> {
  let gets = 0;
  const answer = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    if (req.method === 'GET') {
      gets += 1;
      return void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`id: ${gets}\nretry: 0\n\n`);
    }
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const message = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
    const reply = (result: object): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    if (message.id === undefined) return void res.writeHead(202).end();
    if (message.method === 'initialize') return reply({ protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'retry-zero', version: '1.0.0' } });
    reply({ tools: [] });
  };
  const http = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => answer(req, res, body));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    gets: () => gets,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
