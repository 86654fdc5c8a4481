import { STATUS_CODES } from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { REQUEST_STARTS_PER_TURN } from '../../src/model/request-turns.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { agUiHandler } from '../../src/protocols/ag-ui/ag-ui-handler.js';
import type { ProtocolRequestHandler } from '../../src/protocols/protocol-route.js';
import { chatHandler } from '../../src/protocols/ui-message-stream/chat-handler.js';
import { postJson, serveRuns, type RunsServer } from './http-kit.js';

let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/**
 * Counts the turns of the event loop (check phases) and notes the turn of each run start: the
 * runs `engine.runs` registered since the turn before (each route starts through it, whatever
 * calls the engine on the way). `turns` reads up to now.
 */
function countStarts(server: RunsServer): { turns(): number[]; stop(): void } {
  let turn = 0;
  const turns: number[] = [];
  const note = (): void => {
    const registered = server.engine.runs.list().length;
    while (turns.length < registered) turns.push(turn);
  };
  let ticking = setImmediate(function tick() {
    note();
    turn += 1;
    ticking = setImmediate(tick);
  });
  return {
    turns: () => {
      note();
      return turns;
    },
    stop: () => clearImmediate(ticking),
  };
}

/** The path and JSON body of the `i`th request of a burst. */
type BurstRequest = (i: number) => { readonly path: string; readonly body: unknown };

const postRuns: BurstRequest = () => ({ path: '/runs', body: { prompt: 'go' } });

/** The chat and AG-UI routes beside the runs routes, each with room for 40 runs. */
const protocolRoutes = (engine: HarnessEngine): ProtocolRequestHandler[] => [
  chatHandler(engine, { path: '/api/chat', maxRuns: 40 }),
  agUiHandler(engine, { path: '/ag-ui', maxRuns: 40 }),
];

/** Each route that starts runs, the request that starts one (a conversation of its own each), and its answer's status. */
const ROUTES: ReadonlyArray<{ readonly name: string; readonly request: BurstRequest; readonly status: number }> = [
  { name: 'POST /runs', request: postRuns, status: 201 },
  {
    name: 'the chat route',
    request: (i) => ({ path: '/api/chat', body: { id: `chat-${i}`, messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'go' }] }] } }),
    status: 200,
  },
  {
    name: 'the AG-UI route',
    request: (i) => ({ path: '/ag-ui', body: { threadId: `thread-${i}`, runId: `run-${i}`, messages: [{ id: 'm1', role: 'user', content: 'go' }] } }),
    status: 200,
  },
];

/** Sends `count` POSTs (`POST /runs` unless told) on sockets of their own, all readable by the server in the same turn. */
async function burst(server: RunsServer, count: number, request: BurstRequest = postRuns): Promise<net.Socket[]> {
  const { port } = new URL(server.url);
  const sockets = await Promise.all(
    Array.from({ length: count }, () => new Promise<net.Socket>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => resolve(socket));
      socket.on('error', () => undefined);
    })),
  );
  // the server has accepted every connection (each accepted socket is read from the next poll on)
  while (server.sockets.size < count) await new Promise((resolve) => setTimeout(resolve, 5));
  // every request written, then the loop held until the kernel has them all: one poll reads them together
  await Promise.all(sockets.map((socket, i) => new Promise<void>((resolve) => {
    const { path, body } = request(i);
    const json = JSON.stringify(body);
    socket.write(`POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(json)}\r\nconnection: close\r\n\r\n${json}`, () => resolve());
  })));
  const until = Date.now() + 30;
  while (Date.now() < until); // hold the loop
  return sockets;
}

/** The status line of each socket's answer, once it closes. */
const statuses = (sockets: readonly net.Socket[]): Promise<string[]> =>
  Promise.all(sockets.map((socket) => new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (piece: Buffer) => (text += piece.toString()));
    socket.on('close', () => resolve(text.split('\r\n', 1)[0] ?? ''));
  })));

describe('runs started over HTTP take turns with the model streams', () => {
  it(`a burst of 40 POSTs read in one turn starts at most ${REQUEST_STARTS_PER_TURN} runs a turn, and every one is answered 201 and runs to its end`, async () => {
    served = await serveRuns({ model: new ScriptedModel(() => ({ text: 'done' })) }, { maxRuns: 40 });
    const starts = countStarts(served);
    try {
      const sockets = await burst(served, 40);
      expect(await statuses(sockets)).toEqual(sockets.map(() => 'HTTP/1.1 201 Created'));
      expect(starts.turns()).toHaveLength(40);
      const perTurn = new Map<number, number>();
      for (const turn of starts.turns()) perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
      expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(REQUEST_STARTS_PER_TURN);
      const runs = await served.engine.runs.list();
      await Promise.all(runs.map((run) => served!.engine.runs.attach(run.runId).forEach(() => undefined)));
      expect((await served.engine.runs.list()).map((run) => run.state)).toEqual(runs.map(() => 'done'));
    } finally {
      starts.stop();
    }
  });

  it.each(ROUTES)('$name: a request whose client left while it waited for its turn starts no run, and gives its slot back', async ({ request, status }) => {
    served = await serveRuns({ model: new ScriptedModel(() => ({ text: 'done' })) }, { maxRuns: 40 }, protocolRoutes);
    const starts = countStarts(served);
    try {
      // the last request the server reads waits ten turns; its client leaves as soon as all were read
      let read = 0;
      const lastPort = new Promise<number>((resolve) => {
        served!.server.on('request', (req) => {
          if (req.method === 'POST' && ++read === 40) resolve(req.socket.remotePort ?? 0);
        });
      });
      const sockets = await burst(served, 40, request);
      const port = await lastPort;
      const left = sockets.find((socket) => socket.localPort === port);
      expect(left).toBeDefined();
      left!.destroy();
      const stayed = sockets.filter((socket) => socket !== left);
      expect(await statuses(stayed)).toEqual(stayed.map(() => `HTTP/1.1 ${status} ${STATUS_CODES[status]}`));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(starts.turns()).toHaveLength(39);
      // every slot is free again once the runs end: 40 more start
      const runs = await served.engine.runs.list();
      await Promise.all(runs.map((run) => served!.engine.runs.attach(run.runId).forEach(() => undefined)));
      const again = await Promise.all(Array.from({ length: 40 }, (_, i) => {
        const { path, body } = request(100 + i);
        return postJson(`${served!.url}${path}`, body);
      }));
      expect(again.map((reply) => reply.status)).toEqual(again.map(() => status));
    } finally {
      starts.stop();
    }
  });
});
