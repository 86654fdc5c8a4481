import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { a2aHandler } from '../../src/protocols/a2a/a2a-handler.js';
import { useSlowClients } from './slow-clients.js';
import { serveRuns, type RunsServer } from '../http/http-kit.js';
import { EMPTY_HOME } from '../support/empty-home.js';

/**
 * `runsHandler` on a server of its own (no `rxharness serve` in front): a request it refuses
 * before reading its body (a path not its own, a `415`) is answered `Connection: close` when
 * a body is on its way, and its socket closed; else Node reads and drops a trickled body for
 * as long as its client sends it. Written on real sockets.
 */
let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});
const slow = useSlowClients();

/** Far below Node's request timeout (300 s), far above any loaded machine's answer. */
const CLOSE_DEADLINE_MS = 15_000;

describe('runsHandler: a refusal before the body is read closes a connection whose body still comes', () => {
  it.each([
    ['404 Not Found', 'POST /elsewhere', 'application/json'],
    ['415 Unsupported Media Type', 'POST /runs', 'text/plain'],
  ])('%s for %s with 1 MB trickling in', async (status, request, type) => {
    served = await serveRuns({ model: new ScriptedModel(() => ({ text: 'ok' })) });
    const port = Number(new URL(served.url).port);
    const client = slow(port, { first: `${request} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\nContent-Length: 1000000\r\n\r\n{"prompt":"`, more: 'a' });
    const answer = await client.head;
    expect(answer.split('\r\n', 1)[0]).toBe(`HTTP/1.1 ${status}`);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(await client.closedWithin(CLOSE_DEADLINE_MS), 'the socket closed by the server').toBe(true);
    expect(served.engine.runs.list()).toHaveLength(0);
  }, 30_000);
});

describe('a2aHandler: its 404 for a path not its own closes a connection whose body still comes', () => {
  let server: Server | undefined;
  let engine: HarnessEngine | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await engine?.close();
    server = engine = undefined;
  });

  it('404 Not Found for POST /elsewhere with 1 MB trickling in', async () => {
    engine = new HarnessEngine({ model: new ScriptedModel(() => ({ text: 'ok' })), homeDir: EMPTY_HOME });
    server = createServer(a2aHandler(engine));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const client = slow((server.address() as AddressInfo).port, { first: 'POST /elsewhere HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"a":"', more: 'a' });
    const answer = await client.head;
    expect(answer.split('\r\n', 1)[0]).toBe('HTTP/1.1 404 Not Found');
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(await client.closedWithin(CLOSE_DEADLINE_MS), 'the socket closed by the server').toBe(true);
  }, 30_000);
});
