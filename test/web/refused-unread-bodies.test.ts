import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useDemoServers } from '../support/demo-servers.js';
import { expectRefusalsClose, useSlowClients } from './slow-clients.js';

/**
 * `rxharness serve` refuses some requests before any route reads their body: no token
 * (`401`), a Host of another name (`403`), two Host headers (`400`), no such path (`404`), a
 * method `/` does not take (`405`). A client trickling such a body in must not keep its socket:
 * the refusal closes the connection, as the `429` of a taken run slot does
 * (refused-bodies-close.test.ts); else Node reads and drops the body until its 30 s request
 * timeout, and a flood of such requests, which needs no token, holds as many sockets.
 * Written on real sockets.
 */
const servers = useDemoServers();
const slow = useSlowClients();

/** Far below the server's request timeout (30 s), far above any loaded machine's answer. */
const CLOSE_DEADLINE_MS = 15_000;

/** A POST's head, saying a 1 MB JSON body follows, and the body's first bytes. */
function post(path: string, headers: readonly string[]): string {
  return `POST ${path} HTTP/1.1\r\n${[...headers, 'Content-Type: application/json', 'Content-Length: 1000000'].join('\r\n')}\r\n\r\n{"prompt":"`;
}

describe('serve: a request refused before its body is read does not keep its socket', () => {
  it('401, 403, 400, 404 and 405 with a body still trickling in: Connection: close, and the server closes the socket', async () => {
    const { demo } = await servers.start();
    const port = Number(new URL(demo.url).port);
    const auth = `Authorization: Bearer ${demo.token}`;
    const refusals = [
      { status: '401 Unauthorized', head: post('/api/runs', ['Host: localhost']) },
      { status: '403 Forbidden', head: post('/api/runs', ['Host: evil.example', auth]) },
      { status: '400 Bad Request', head: post('/api/runs', ['Host: localhost', 'Host: evil.example', auth]) },
      { status: '404 Not Found', head: post('/nothing-here', ['Host: localhost', auth]) },
      { status: '405 Method Not Allowed', head: post('/', ['Host: localhost', auth]) },
    ];
    await expectRefusalsClose(slow, port, refusals, CLOSE_DEADLINE_MS);
    expect(demo.engine.runs.list()).toHaveLength(0);
    // a refused request without a body keeps its connection: a second request on it is answered
    expect(await twoOnOneSocket(port, `GET /nothing-here HTTP/1.1\r\nHost: localhost\r\n\r\n`)).toEqual(['HTTP/1.1 401 Unauthorized', 'HTTP/1.1 401 Unauthorized']);
  }, 60_000);
});

/** Sends `request` twice on one socket, the second after the first's answer; resolves both status lines. */
function twoOnOneSocket(port: number, request: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let got = '';
    let sent = 1;
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    // an answer's body ends without a line break: the next status line follows it on the same line
    const statuses = (): string[] => got.match(/HTTP\/1\.1 \d{3} [A-Za-z ]+/g) ?? [];
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      got += chunk;
      if (statuses().length === 2) {
        socket.destroy();
        resolve(statuses());
      } else if (sent === 1 && statuses().length === 1) {
        sent = 2;
        socket.write(request);
      }
    });
    socket.on('close', () => resolve(statuses()));
    socket.on('error', reject);
  });
}
