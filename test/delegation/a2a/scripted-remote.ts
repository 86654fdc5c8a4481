/**
 * A remote A2A agent for the tests of src/delegation/a2a: a valid card, then a JSON-RPC
 * endpoint that behaves as asked. It records every request (method, URL, headers), answers
 * `tasks/cancel`, and counts the streams still open.
 *
 * - `stall`: takes the task (`working`), then says nothing more, holding the stream open;
 * - `flood`: `floodCount` status updates (`tick 1`, `tick 2`, ...) as fast as it can, then an
 *   artifact and `completed`;
 * - `paced`: the same, one update per `step()` (the test sets the pace, so no timer of the
 *   remote races the client's idle timeout), and after `floodCount` of them, the artifact and
 *   `completed` at the next `step()`;
 * - `echo-401`: refuses with 401, its body echoing the request's credentials back (as a
 *   careless server's error page would);
 * - `answer`: completes at once with the answer `done`;
 * - `echo-split`: echoes the bearer token it got, as `echo: <token> end` cut into pieces where
 *   the task's prompt says (`artifact 3 7`: artifact chunks cut 3 and 7 characters into the
 *   token; `status 3`: status messages; `error 3`: a 500 whose body is written in pieces), as a
 *   careless server echoing a request would, its output streamed;
 * - `slow-card`: holds the card's request unanswered until `releaseCard()`, then behaves as
 *   `answer`; `cardAsked()` resolves when the card is asked for, `cardOutcome()` tells what
 *   came first after: the client closing that request's connection, or a JSON-RPC request.
 *
 * @module
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentCard, StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import { agentCardOf } from '../../../src/protocols/a2a/agent-card.js';
import { agentMessage, statusOf, textArtifact } from '../../../src/protocols/a2a/a2a-values.js';

/** How the endpoint behaves. */
export type RemoteScript = 'stall' | 'flood' | 'paced' | 'echo-401' | 'answer' | 'slow-card' | 'echo-split';

/** One request the remote received. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** The JSON-RPC method, for a POST. */
  readonly rpc?: string;
}

/** A running scripted remote. */
export interface ScriptedRemote {
  readonly cardUrl: string;
  readonly requests: ReceivedRequest[];
  /** Streams still open. */
  readonly open: () => number;
  /** Resolves when the first stream (`message/stream`) has been answered with the task. */
  streamOpened(): Promise<void>;
  /** `paced`: sends the next update of the open stream (see {@link RemoteScript}). */
  step(): void;
  /** `slow-card`: answers the card's request now (if the client still waits for it). */
  releaseCard(): void;
  /** `slow-card`: resolves when the card's request has arrived. */
  cardAsked(): Promise<void>;
  /** `slow-card`: what came first, the client closing the card request's connection (`dropped`), or a JSON-RPC request (`rpc`). */
  cardOutcome(): Promise<'dropped' | 'rpc'>;
  close(): Promise<void>;
}

/**
 * Starts a scripted remote on 127.0.0.1. Its card names `rpcUrl` as the JSON-RPC endpoint
 * (default its own `/a2a`): another server's, to play a card that sends clients elsewhere.
 */
export async function startScriptedRemote(script: RemoteScript, floodCount = 10_000, rpcUrl?: string): Promise<ScriptedRemote> {
  let open = 0;
  const requests: ReceivedRequest[] = [];
  const heldCards: (() => void)[] = [];
  let step: () => void = () => {
    throw new Error('step(): no paced stream is open');
  };
  let opened!: () => void;
  const streamOpened = new Promise<void>((resolve) => (opened = resolve));
  let cardAsked!: () => void;
  const asked = new Promise<void>((resolve) => (cardAsked = resolve));
  let settle!: (outcome: 'dropped' | 'rpc') => void;
  const cardOutcome = new Promise<'dropped' | 'rpc'>((resolve) => (settle = resolve));
  const server: Server = createServer((req, res) => {
    const base = `http://${req.headers.host}`;
    if (req.method === 'GET') {
      requests.push({ method: 'GET', url: `${base}${req.url}`, headers: req.headers });
      const answerCard = (): void => {
        if (res.destroyed) return;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(AgentCard.toJSON(agentCardOf([], rpcUrl ?? `${base}/a2a`, false, { name: 'scripted' }))));
      };
      if (script !== 'slow-card') return answerCard();
      req.socket.on('close', () => settle('dropped'));
      cardAsked();
      return void heldCards.push(answerCard);
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      requests.push({ method: 'POST', url: `${base}${req.url}`, headers: req.headers, rpc: method });
      settle('rpc');
      const split = script === 'echo-split' ? echoSplit(body, req.headers.authorization) : undefined;
      if (split?.where === 'error') {
        res.writeHead(500, { 'content-type': 'text/plain' });
        for (const piece of split.pieces) res.write(piece);
        return res.end();
      }
      if (script === 'echo-401') {
        res.writeHead(401, { 'content-type': 'text/plain' });
        return res.end(`unauthorized: ${req.headers.authorization} with key ${String(req.headers['x-api-key'])} is not valid here for tenant ${String(req.headers['x-tenant'])}`);
      }
      if (/cancel/i.test(method)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        const task: Task = { id: 't1', contextId: 'c1', status: statusOf(TaskState.TASK_STATE_CANCELED), artifacts: [], history: [], metadata: undefined };
        return res.end(JSON.stringify({ jsonrpc: '2.0', id, result: Task.toJSON(task) }));
      }
      const send = (response: StreamResponse): boolean => res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: StreamResponse.toJSON(response) })}\n\n`);
      const status = (state: TaskState, text = ''): StreamResponse => ({ payload: { $case: 'statusUpdate', value: { taskId: 't1', contextId: 'c1', status: statusOf(state, agentMessage('t1', 'c1', text)), metadata: undefined } } });
      open += 1;
      res.on('close', () => (open -= 1));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      send({ payload: { $case: 'task', value: { id: 't1', contextId: 'c1', status: statusOf(TaskState.TASK_STATE_WORKING), artifacts: [], history: [], metadata: undefined } } });
      opened();
      if (script === 'stall') return; // the stream stays open, silent
      if (split !== undefined) {
        split.pieces.forEach((piece, i) => {
          if (split.where === 'status') return void send(status(TaskState.TASK_STATE_WORKING, piece));
          send({ payload: { $case: 'artifactUpdate', value: { taskId: 't1', contextId: 'c1', artifact: textArtifact('a', 'a', '', piece), append: i > 0, lastChunk: false, metadata: undefined } } });
        });
        send(status(TaskState.TASK_STATE_COMPLETED));
        return void res.end();
      }
      if (script === 'answer' || script === 'slow-card') {
        send(status(TaskState.TASK_STATE_COMPLETED, 'done'));
        return void res.end();
      }
      let sent = 0;
      const finish = (): void => {
        send({ payload: { $case: 'artifactUpdate', value: { taskId: 't1', contextId: 'c1', artifact: textArtifact('a', 'a', '', 'the flood is over'), append: false, lastChunk: true, metadata: undefined } } });
        send(status(TaskState.TASK_STATE_COMPLETED));
        res.end();
      };
      const next = (): void => {
        while (!res.destroyed && sent < floodCount) if (!send(status(TaskState.TASK_STATE_WORKING, `tick ${++sent}`))) return void res.once('drain', next);
        if (!res.destroyed) finish();
      };
      step = (): void => {
        if (res.destroyed) return;
        if (sent === floodCount) return finish();
        send(status(TaskState.TASK_STATE_WORKING, `tick ${++sent}`));
      };
      if (script !== 'paced') next();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    cardUrl: `http://127.0.0.1:${port}/.well-known/agent-card.json`,
    requests,
    open: () => open,
    streamOpened: () => streamOpened,
    step: () => step(),
    releaseCard: () => {
      for (const answer of heldCards.splice(0)) answer();
    },
    cardAsked: () => asked,
    cardOutcome: () => cardOutcome,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `echo-split`: the echo of the request's bearer token, cut where the prompt in `body` says. */
function echoSplit(body: string, authorization: string | undefined): { where: string; pieces: string[] } | undefined {
  const asked = /"(artifact|status|error)((?: \d+)+)"/.exec(body);
  if (asked === null) return undefined;
  const text = `echo: ${authorization?.replace(/^Bearer /, '') ?? ''} end`;
  const cuts = [0, ...asked[2]!.trim().split(' ').map((n) => 'echo: '.length + Number(n)), text.length];
  return { where: asked[1]!, pieces: cuts.slice(1).map((end, i) => text.slice(cuts[i], end)) };
}
