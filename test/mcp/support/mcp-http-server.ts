/**
 * What the hand-written MCP servers over Streamable HTTP share (written without the SDK, so
 * nothing bounds what they send): listening on a free port of 127.0.0.1, reading each
 * request's whole body before answering it, the JSON-RPC handshake, and closing with every
 * connection dropped.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A JSON-RPC message a client posts, as far as these servers read it. */
export interface McpMessage {
  readonly id?: number;
  readonly method: string;
  readonly params?: { readonly protocolVersion?: string };
}

/** A running hand-written server. */
export interface McpHttpServer {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Drops every connection (a response still being written ends) and waits until it stopped listening. */
  close(): Promise<void>;
}

/** Starts a server answering each request with `answer`, once its whole `body` is in. */
export async function mcpHttpServer(answer: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<McpHttpServer> {
  const http = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => answer(req, res, body));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Answers `message` with `result`, as one JSON body. */
export function replyResult(res: ServerResponse, message: McpMessage, result: object): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
}

/**
 * Answers a notification (`202`) and `initialize` (as server `name`, offering tools); true
 * when it did, false for any other request.
 */
export function answeredHandshake(res: ServerResponse, message: McpMessage, name: string): boolean {
  if (message.id === undefined) {
    res.writeHead(202).end();
    return true;
  }
  if (message.method !== 'initialize') return false;
  replyResult(res, message, { protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name, version: '1.0.0' } });
  return true;
}
