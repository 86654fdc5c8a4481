/**
 * A hostile remote A2A agent for the tests of src/delegation/a2a, speaking the 0.3 wire format
 * (`kind`-tagged JSON) by hand, so a test can send what no SDK would: a card whose JSON-RPC
 * URL is any string, updates naming other tasks, a stream held until the test says so. It
 * records every JSON-RPC method received, answers `tasks/cancel`, and counts open streams.
 *
 * @module
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Writes one stream's updates: `send` writes one as an SSE frame of the JSON-RPC answer; `id` is the request's JSON-RPC id. */
export type StreamScript = (send: (result: unknown) => void, res: ServerResponse, id: number) => void;

/** A running wire remote. */
export interface WireRemote {
  readonly cardUrl: string;
  /** Every JSON-RPC method received, in order. */
  readonly methods: string[];
  /** Streams still open. */
  readonly open: () => number;
  close(): Promise<void>;
}

/** A task of id `id` in state `state` (0.3 wire). */
export const task = (state: string, id = 't1', contextId = 'c1') => ({ kind: 'task', id, contextId, status: { state } });

/** A status update of task `taskId`, its message `text` (none if empty). */
export const status = (state: string, text = '', taskId = 't1', contextId = 'c1') => ({
  kind: 'status-update',
  taskId,
  contextId,
  final: false,
  status: { state, ...(text ? { message: { kind: 'message', messageId: 'm', role: 'agent', parts: [{ kind: 'text', text }] } } : {}) },
});

/** An update of artifact `a` of task `taskId`: `text`, appended or whole. */
export const artifact = (text: string, append = false, taskId = 't1', contextId = 'c1') => ({
  kind: 'artifact-update',
  taskId,
  contextId,
  artifact: { artifactId: 'a', parts: [{ kind: 'text', text }] },
  append,
});

/**
 * Starts a wire remote on 127.0.0.1: its card names `rpcUrl` as the JSON-RPC endpoint
 * (default its own `/a2a`); each `message/stream` is answered as an event stream written by `script`.
 */
export async function startWireRemote(script: StreamScript, rpcUrl?: string): Promise<WireRemote> {
  const methods: string[] = [];
  let open = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET') {
      const url = rpcUrl ?? `http://${req.headers.host}/a2a`;
      const card = { name: 'wire', description: 'A hostile remote', url, preferredTransport: 'JSONRPC', protocolVersion: '0.3.0', version: '1', capabilities: { streaming: true }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [] };
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(card));
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const { id, method, params } = JSON.parse(body) as { id: number; method: string; params?: { id?: string } };
      methods.push(method);
      if (/cancel/i.test(method)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ jsonrpc: '2.0', id, result: task('canceled', params?.id ?? 't1') }));
      }
      open += 1;
      res.on('close', () => (open -= 1));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      script((result) => void res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`), res, id);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    cardUrl: `http://127.0.0.1:${port}/.well-known/agent-card.json`,
    methods,
    open: () => open,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
