/**
 * A hostile remote A2A agent for the tests: a valid card, then a JSON-RPC endpoint that
 * misbehaves as asked (garbage, a stream that never ends, huge artifacts, an error, a
 * failed task). It counts the streams it served and those still open.
 *
 * @module
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentCard, StreamResponse, TaskState } from '@a2a-js/sdk';
import { agentCardOf } from '../../../src/protocols/a2a/agent-card.js';
import { agentMessage, statusOf, textArtifact } from '../../../src/protocols/a2a/a2a-values.js';

/** How the endpoint misbehaves. */
export type Hostility = 'garbage' | 'endless-status' | 'endless-artifacts' | 'huge-event' | 'rpc-error' | 'failed-task' | 'no-final-state';

/** A running hostile agent. */
export interface HostileAgent {
  readonly cardUrl: string;
  /** Streams still open (0 once the client dropped them all). */
  readonly open: () => number;
  close(): Promise<void>;
}

/** Starts a hostile agent on 127.0.0.1. */
export async function startHostileAgent(hostility: Hostility): Promise<HostileAgent> {
  let open = 0;
  const server: Server = createServer((req, res) => {
    const base = `http://${req.headers.host}`;
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(AgentCard.toJSON(agentCardOf([], `${base}/a2a`, false, { name: 'hostile' }))));
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const { id } = JSON.parse(body) as { id: number };
      const send = (response: StreamResponse): boolean => res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: StreamResponse.toJSON(response) })}\n\n`);
      const task = (state: TaskState, text = ''): StreamResponse => ({ payload: { $case: 'statusUpdate', value: { taskId: 't1', contextId: 'c1', status: statusOf(state, agentMessage('t1', 'c1', text)), metadata: undefined } } });
      const artifact = (text: string): StreamResponse => ({ payload: { $case: 'artifactUpdate', value: { taskId: 't1', contextId: 'c1', artifact: textArtifact('a', 'a', '', text), append: true, lastChunk: false, metadata: undefined } } });
      if (hostility === 'rpc-error') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'the hostile agent broke' } }));
      }
      open += 1;
      res.on('close', () => (open -= 1));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      send({ payload: { $case: 'task', value: { id: 't1', contextId: 'c1', status: statusOf(TaskState.TASK_STATE_WORKING), artifacts: [], history: [], metadata: undefined } } });
      switch (hostility) {
        case 'garbage':
          return void res.end('data: {this is not json\n\n');
        case 'huge-event':
          return void res.end(`data: ${'x'.repeat(5 * 1024 * 1024)}\n\n`);
        case 'failed-task':
          send(artifact('half an answer'));
          send(task(TaskState.TASK_STATE_FAILED, 'out of ideas'));
          return void res.end();
        case 'no-final-state':
          send(artifact('an answer without an end'));
          return void res.end();
        default: {
          // Never ends: writes as fast as the client reads, until it goes away.
          const next = (): void => {
            while (!res.destroyed && send(hostility === 'endless-status' ? task(TaskState.TASK_STATE_WORKING, 'tick') : artifact('y'.repeat(100_000))));
            if (!res.destroyed) res.once('drain', next);
          };
          next();
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    cardUrl: `http://127.0.0.1:${port}/.well-known/agent-card.json`,
    open: () => open,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
