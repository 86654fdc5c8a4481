/**
 * A hostile MCP server over Streamable HTTP on 127.0.0.1, written by hand (no SDK): it starts
 * and lists no tools, and answers every `GET` (the event stream a client keeps open for the
 * server's messages) with an event asking for reconnects at once (`retry: 0`), then ends the
 * stream cleanly. The SDK's client takes that retry with no minimum and counts no attempt
 * for a clean end, so unguarded it reconnected in a tight loop for as long as it ran.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answeredHandshake, mcpHttpServer, replyResult, type McpMessage } from './mcp-http-server.js';

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
    const message = JSON.parse(body) as McpMessage;
    if (answeredHandshake(res, message, 'retry-zero')) return;
    replyResult(res, message, { tools: [] });
  };
  const http = await mcpHttpServer(answer);
  return { url: http.url, gets: () => gets, close: http.close };
}
