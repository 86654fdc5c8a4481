import { describe, expect, it } from 'vitest';
import { useDemoServers } from '../support/demo-servers.js';
import { useSlowClients, type SlowClient } from './slow-clients.js';

/**
 * `rxharness serve` with every slot taken: a request that starts a run (the page's
 * `POST /api/runs`, `POST /api/chat`, `POST /ag-ui`) is refused `429` before its body is
 * read. A client that goes on trickling that body in must not keep its socket: the refusal
 * closes the connection (else Node reads and drops the body until its 30 s request timeout,
 * and a flood of such requests holds as many sockets). Written on real sockets.
 */
const servers = useDemoServers();
const slow = useSlowClients();

/** Far below the server's request timeout (30 s), far above any loaded machine's answer. */
const CLOSE_DEADLINE_MS = 15_000;

/** Sends the head and the start of a body that is said to be 100 kB long, then one more byte every 100 ms. */
function trickle(port: number, path: string, token: string): SlowClient {
  const first = `POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"prompt":"`;
  return slow(port, { first, more: 'a', everyMs: 100 });
}

/** One whole request on its own connection, answered: after it, the server has read whatever reached it before. */
async function roundTrip(origin: string, token: string): Promise<void> {
  await (await fetch(`${origin}/api/runs/run_none`, { headers: { authorization: `Bearer ${token}` } })).text();
}

describe('serve: a request refused for want of a slot does not keep its socket', () => {
  it('POST /api/runs, /api/chat and /ag-ui: 429, Connection: close, and the server closes the socket while the body still trickles', async () => {
    const { demo } = await servers.start({ fake: () => ({ hang: true }), server: { maxRuns: 1, maxControlRequests: 1, bodyTimeoutMs: 60_000 } });
    const origin = new URL(demo.url).origin;
    const port = Number(new URL(demo.url).port);
    // the one run slot: a run whose model never answers
    const held = await fetch(`${origin}/api/runs`, { method: 'POST', headers: { authorization: `Bearer ${demo.token}`, 'content-type': 'application/json' }, body: '{"prompt":"hold"}' });
    expect(held.status).toBe(201);
    // AG-UI reads a body on a control slot when no run slot is free: hold its one with a body on its way
    trickle(port, '/ag-ui', demo.token);
    await roundTrip(origin, demo.token);
    for (const path of ['/api/runs', '/api/chat', '/ag-ui']) {
      const client = trickle(port, path, demo.token);
      const answer = await client.head;
      expect(answer.split('\r\n', 1)[0], path).toBe('HTTP/1.1 429 Too Many Requests');
      expect(answer.toLowerCase(), path).toContain('connection: close');
      expect(answer.toLowerCase(), path).toContain('retry-after: 5');
      expect(await client.closedWithin(CLOSE_DEADLINE_MS), `${path}: the socket closed by the server`).toBe(true);
    }
    // the server goes on answering, and nothing refused started a run
    await roundTrip(origin, demo.token);
    expect(demo.engine.runs.list()).toHaveLength(1);
  }, 90_000);
});
