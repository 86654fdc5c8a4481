/**
 * The fake OpenAI server for benchmarks, in its own process, plus a tiny control endpoint
 * the shared `serve-fake-openai` script does not have:
 *
 * ```sh
 * node --import tsx bench/support/serve-bench.ts bench/scenarios/<x>.ts
 * ```
 *
 * Prints one line `{"baseURL": ..., "statsURL": ...}`. `GET <statsURL>` answers
 * `{ requests, inFlight, peakInFlight }`; `POST <statsURL>` restarts peak tracking first.
 * The control server listens on its own port so it never touches the measured traffic.
 * Ends when stdin closes (start it with a piped stdin), on SIGTERM or SIGINT.
 *
 * @module
 */
import { createServer, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeOpenAIServer } from '../../test/support/fake-openai-server.js';
import { loadScenarioHandler } from '../../test/support/fake-openai/scenario-args.js';

const modulePath = process.argv[2];
if (!modulePath) {
  process.stderr.write('usage: node --import tsx bench/support/serve-bench.ts <scenario-module>\n');
  process.exit(2);
}
yieldBetweenWrites();
keepConnectionsOpen();
const server = await FakeOpenAIServer.start({ handler: await loadScenarioHandler(modulePath) });
const control = createServer((req, res) => {
  if (req.method === 'POST') server.resetPeak();
  const stats = { requests: server.requests.length, inFlight: server.inFlight, peakInFlight: server.peakInFlight };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
});
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
const { port } = control.address() as AddressInfo;

/**
 * The fake server awaits each SSE chunk's write callback; a write to a socket with room
 * calls back in the same turn of the event loop, so one response would go out whole before
 * the server even reads the next request, and concurrent children would never overlap.
 * Deferring the callback to the next turn lets concurrent streams interleave, as they do
 * from a real model server, without adding timer delays.
 */
function yieldBetweenWrites(): void {
  const write = ServerResponse.prototype.write as (this: ServerResponse, ...args: unknown[]) => boolean;
  ServerResponse.prototype.write = function (this: ServerResponse, ...args: unknown[]): boolean {
    const last = args.at(-1);
    if (typeof last === 'function') args[args.length - 1] = (...r: unknown[]) => setImmediate(() => last(...r));
    return write.apply(this, args);
  } as typeof ServerResponse.prototype.write;
}

/**
 * Node closes a keep-alive connection after 5 idle seconds; a slow client that reuses it at
 * that moment gets "other side closed" (the Vercel AI SDK's main request does, after its
 * workers streamed for longer than that on a busy machine). A real model server keeps them
 * longer: so does this one (1 minute), for every server created from here on.
 */
function keepConnectionsOpen(): void {
  const listen = Server.prototype.listen as (this: Server, ...args: unknown[]) => Server;
  Server.prototype.listen = function (this: Server, ...args: unknown[]): Server {
    this.keepAliveTimeout = 60_000;
    return listen.apply(this, args);
  } as typeof Server.prototype.listen;
}

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  process.stdin.destroy();
  control.close();
  control.closeAllConnections();
  void server.close();
};
process.once('SIGTERM', stop).once('SIGINT', stop);
process.stdin.on('end', stop).on('close', stop).resume();
process.stdout.write(`${JSON.stringify({ baseURL: server.baseURL, statsURL: `http://127.0.0.1:${port}/stats` })}\n`);
