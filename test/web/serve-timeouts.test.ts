import { describe, expect, it } from 'vitest';
import { useDemoServers } from '../support/demo-servers.js';
import { useSlowClients } from './slow-clients.js';

/**
 * `rxharness serve` cuts a client too slow to send its request at its timeouts: Node looks
 * for such connections only every `connectionsCheckingInterval` (30 s unless told), so with
 * the 10 s headers timeout alone a socket trickling headers, or saying nothing, lived some
 * 30 s, and a thousand unfinished 60 KB heads were all still held 20 s on. The server here
 * has short timeouts, so the cut comes within seconds; without the looks every second it
 * would come only at Node's first look, 30 s after the server started. Written on real
 * sockets, without a token (none is needed to hold a socket).
 */
const servers = useDemoServers();
const slow = useSlowClients();

/** Short enough to see fire, long enough that a connecting client is not cut before it sends. */
const TIMEOUTS = { headersMs: 500, requestMs: 1_000 };
/** Far above the timeouts plus a look (a loaded machine's answer too), far below Node's 30 s between looks. */
const CUT_DEADLINE_MS = 10_000;

describe('serve: a client too slow to send its request does not keep its socket', () => {
  it('headers trickled a line at a time, a silent socket, and 100 unfinished 60 KB heads are all cut (408) at the headers timeout', async () => {
    const { demo } = await servers.start({ server: { timeouts: TIMEOUTS } });
    const port = Number(new URL(demo.url).port);
    const start = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n';
    const trickled = slow(port, { first: start, more: 'X-Slow: a\r\n' });
    const silent = slow(port, { first: '' });
    const pad = `X-Pad: ${'a'.repeat(1000)}\r\n`;
    const heads = Array.from({ length: 100 }, () => slow(port, { first: start + pad.repeat(60) }));
    const clients = [trickled, silent, ...heads];
    const closed = await Promise.all(clients.map((client) => client.closedWithin(CUT_DEADLINE_MS)));
    expect(closed.filter((was) => !was), 'sockets still open at the deadline').toHaveLength(0);
    for (const client of [trickled, ...heads]) expect((await client.head).split('\r\n', 1)[0]).toBe('HTTP/1.1 408 Request Timeout');
    // the server goes on answering
    expect((await fetch(demo.url)).status).toBe(200);
  }, 30_000);

  it('a body trickled to a route that reads it, with a longer body timeout, is cut (408) at the request timeout', async () => {
    const { demo } = await servers.start({ server: { timeouts: TIMEOUTS, bodyTimeoutMs: 60_000 } });
    const port = Number(new URL(demo.url).port);
    const client = slow(port, {
      first: `POST /api/runs HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${demo.token}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"prompt":"`,
      more: 'a',
    });
    expect(await client.closedWithin(CUT_DEADLINE_MS), 'the socket closed by the server').toBe(true);
    expect((await client.head).split('\r\n', 1)[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(demo.engine.runs.list()).toHaveLength(0);
  }, 30_000);
});
