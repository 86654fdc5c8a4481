import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { getRetryingReset } from '../../../bench/support/get-retrying-reset.js';

let server: http.Server | undefined;
let agent: http.Agent | undefined;
afterEach(async () => {
  agent?.destroy();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = agent = undefined;
});

/** The server's idle timeout: Node's agent keeps no connection of a server announcing under 2 s. */
const KEEP_ALIVE_MS = 2_000;

/**
 * The bench's sequence under load: `POST` a run, then `GET` its events on the same
 * keep-alive connection, sent just as the server's idle timer closes it (a lagging client or
 * server makes that moment likely: a third of the streams of a loaded 300-run bench). Here the
 * `GET` is sent from the server socket's own `'timeout'` event, right after the server
 * closed it and before the client could read the close: the request meets a closed socket,
 * and the kernel answers with a reset.
 */
async function getAsTheServerCloses(get: (url: string, options: http.RequestOptions) => Promise<http.IncomingMessage>): Promise<string> {
  server = http.createServer((req, res) => req.resume().on('end', () => res.end(req.method === 'POST' ? 'started' : 'events')));
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  const firstConnection = new Promise<Socket>((resolve) => server!.once('connection', resolve));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const options = { agent };
  await new Promise<void>((resolve, reject) => {
    http.request(url, { method: 'POST', agent }, (res) => res.resume().on('end', resolve)).on('error', reject).end('{}');
  });
  // the server's listener (registered first) closes the idle connection; this one runs right after
  const answer = await new Promise<Promise<http.IncomingMessage>>((resolve) => void firstConnection.then((socket) => socket.once('timeout', () => resolve(get(url, options)))));
  const res = await answer;
  let body = '';
  for await (const piece of res.setEncoding('utf8')) body += piece;
  return body;
}

describe('getRetryingReset: a GET on a keep-alive connection the server closed as it went out', () => {
  it('the race is real: a plain http.get fails with ECONNRESET on the reused socket', async () => {
    const plainGet = (url: string, options: http.RequestOptions): Promise<http.IncomingMessage> =>
      new Promise((resolve, reject) => {
        const req = http.get(url, options, resolve);
        req.on('error', (error: NodeJS.ErrnoException) => reject(Object.assign(error, { reused: req.reusedSocket })));
      });
    await expect(getAsTheServerCloses(plainGet)).rejects.toMatchObject({ code: 'ECONNRESET', reused: true });
  });

  it('sends the GET again on a fresh connection and reads the answer', async () => {
    expect(await getAsTheServerCloses(getRetryingReset)).toBe('events');
  });

  it('does not retry a reset of a fresh connection', async () => {
    server = http.createServer((req) => req.socket.resetAndDestroy());
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    let requests = 0;
    server.on('request', () => (requests += 1));
    await expect(getRetryingReset(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {})).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(requests).toBe(1);
  });
});
