/**
 * Our MCP test server over Streamable HTTP on 127.0.0.1 (a free port): one SDK server and
 * transport per session, as the SDK's stateful example does. It records the labels of `wait`
 * calls started and cancelled, and the headers of every request.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { testMcpServer } from './test-server-tools.js';

/** A running HTTP test server. */
export interface HttpTestServer {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly started: string[];
  readonly cancelled: string[];
  readonly headers: IncomingHttpHeaders[];
  /** Sessions the server holds now. */
  sessions(): number;
  /** Forgets every session, as a restarted server would (their requests get 404 after). */
  dropSessions(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the server. */
export async function startHttpTestServer(): Promise<HttpTestServer> {
  const started: string[] = [];
  const cancelled: string[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http: Server = createServer((req, res) => {
    headers.push(req.headers);
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (!transport) {
      if (typeof id === 'string') {
        res.writeHead(404).end();
        return;
      }
      const fresh = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => void transports.set(sid, fresh) });
      fresh.onclose = () => {
        if (fresh.sessionId) transports.delete(fresh.sessionId);
      };
      void testMcpServer({ started: (l) => void started.push(l), cancelled: (l) => void cancelled.push(l) }).connect(fresh);
      transport = fresh;
    }
    void transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    started,
    cancelled,
    headers,
    sessions: () => transports.size,
    dropSessions: async () => {
      const all = [...transports.values()];
      transports.clear();
      await Promise.all(all.map((t) => t.close()));
    },
    close: async () => {
      await Promise.all([...transports.values()].map((t) => t.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
