/**
 * A hostile MCP server over Streamable HTTP on 127.0.0.1, written by hand (no SDK, so
 * nothing bounds what it sends): it starts and lists one tool, `endless`, whose call is
 * answered with a body that never completes a message, 64 KiB at a time, until the client
 * closes it or {@link ENDLESS_LIMIT} bytes are out. As `sse`, an event stream of `data:`
 * lines with no blank line ending the event; as `json`, a JSON body that never closes.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answeredHandshake, mcpHttpServer, replyResult, type McpMessage } from './mcp-http-server.js';

/** Where the server stops writing by itself. */
export const ENDLESS_LIMIT = 64 * 1024 * 1024;

/** A running endless server. */
export interface EndlessHttpServer {
  readonly url: string;
  /** Bytes of the endless answer written when the client closed it (or it reached the limit); undefined before. */
  written(): number | undefined;
  close(): Promise<void>;
}

const CHUNK = 64 * 1024;

/** Starts the server; `kind` is the endless answer's content type. */
export async function startEndlessHttpServer(kind: 'sse' | 'json'): Promise<EndlessHttpServer> {
  let written: number | undefined;
  const endless = (res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': kind === 'sse' ? 'text/event-stream' : 'application/json' });
    let sent = 0;
    const piece = kind === 'sse' ? `data: ${'a'.repeat(CHUNK - 7)}\n` : 'a'.repeat(CHUNK);
    res.write(kind === 'sse' ? '' : '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"');
    const more = (): void => {
      while (sent < ENDLESS_LIMIT && !res.destroyed) {
        sent += CHUNK;
        if (!res.write(piece)) return void res.once('drain', more);
      }
      written ??= sent;
      res.end();
    };
    res.on('close', () => void (written ??= sent));
    more();
  };
  const answer = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const message = JSON.parse(body) as McpMessage;
    if (answeredHandshake(res, message, 'endless')) return;
    if (message.method === 'tools/list') return replyResult(res, message, { tools: [{ name: 'endless', description: 'Never finishes its answer.', inputSchema: { type: 'object' } }] });
    endless(res);
  };
  const http = await mcpHttpServer(answer);
  return { url: http.url, written: () => written, close: http.close };
}
