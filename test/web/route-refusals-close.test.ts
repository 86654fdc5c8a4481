import { describe, expect, it } from 'vitest';
import { useDemoServers } from '../support/demo-servers.js';
import { expectRefusalsClose, useSlowClients } from './slow-clients.js';

/**
 * `rxharness serve`'s routes refuse some requests before they read the body: a content type
 * other than JSON (`415`, on the runs API and on `/ag-ui`), an unknown run (`404`). As with
 * the refusals of `serve` itself (refused-unread-bodies.test.ts), a client trickling that body
 * in must not keep its socket until the 30 s request timeout: the refusal closes the
 * connection. A refusal of a request without a body keeps it. Written on real sockets.
 */
const servers = useDemoServers();
const slow = useSlowClients();

/** Far below the server's request timeout (30 s), far above any loaded machine's answer. */
const CLOSE_DEADLINE_MS = 15_000;

/** A POST's head, with the token, saying a body of `length` bytes of `type` follows. */
function post(path: string, token: string, type: string, length: number): string {
  return `POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;
}

describe('serve: a request a route refuses before reading its body does not keep its socket', () => {
  it('415 on POST /api/runs and /ag-ui, 404 on POST /api/runs/run_none/cancel, a 1 MB body trickling in: Connection: close, and the server closes the socket', async () => {
    const { demo } = await servers.start();
    const port = Number(new URL(demo.url).port);
    const refusals = [
      { status: '415 Unsupported Media Type', head: post('/api/runs', demo.token, 'text/plain', 1_000_000) },
      { status: '415 Unsupported Media Type', head: post('/ag-ui', demo.token, 'text/plain', 1_000_000) },
      { status: '404 Not Found', head: post('/api/runs/run_none/cancel', demo.token, 'application/json', 1_000_000) },
    ].map((refusal) => ({ ...refusal, head: `${refusal.head}{"prompt":"` }));
    await expectRefusalsClose(slow, port, refusals, CLOSE_DEADLINE_MS);
    expect(demo.engine.runs.list()).toHaveLength(0);
  }, 60_000);

  it('the same refusals of a request with no body keep the connection', async () => {
    const { demo } = await servers.start();
    const port = Number(new URL(demo.url).port);
    for (const head of [post('/api/runs', demo.token, 'text/plain', 0), post('/api/runs/run_none/cancel', demo.token, 'application/json', 0)]) {
      const client = slow(port, { first: head });
      const answer = (await client.head).toLowerCase();
      expect(answer).toMatch(/^http\/1\.1 4(15|04) /);
      expect(answer).toContain('connection: keep-alive');
      expect(await client.closedWithin(500)).toBe(false);
    }
  });
});
