import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { boundedFetch, MCP_EMPTY_EVENTS_MAX } from '../../src/mcp/mcp-bounded-fetch.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

const http = httpServerPerTest();
afterEach(() => void vi.useRealTimers());

const TOO_MANY_EMPTY = `its event stream ended more than ${MCP_EMPTY_EVENTS_MAX} events without data (keep-alive comments) within 1 s`;
// Nothing but keep-alive comments: a few kB, far below the 10 MiB a JSON answer may hold in all.
const FLOOD = ': keep-alive\n\n'.repeat(MCP_EMPTY_EVENTS_MAX * 2);

// The SDK reads the answer to its GET (the server's stream of its own messages) as an event
// stream whatever its content-type; the bound chose by the media type, so a GET answered
// `application/json` got the JSON bounds alone (10 MiB in all): keep-alives as fast as the
// socket took them, and one event up to 10 MiB, went unbounded.
// The bound's clock (Date) stands still: every event ends within one window, whatever the load.
describe('an MCP server answering the GET for its event stream as application/json', () => {
  it('boundedFetch bounds the answer to a GET as an event stream', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const url = await http.serve((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(FLOOD));
    const told: string[] = [];
    const response = await boundedFetch((why) => told.push(why))(url, { method: 'GET' });
    const read = await response.text().catch((e: unknown) => e);
    expect(told).toEqual([TOO_MANY_EMPTY]);
    expect(read).toBeInstanceOf(Error);
  });

  it('through the SDK transport: the stream it opens after initializing is bounded as events', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const url = await http.serve((req, res) => {
      if (req.method !== 'GET') return void res.writeHead(202).end();
      // The server's stream, typed as JSON, never ending: keep-alives only.
      res.writeHead(200, { 'content-type': 'application/json' }).write(FLOOD);
    });
    const told: string[] = [];
    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: boundedFetch((why) => told.push(why)) });
    transport.onerror = () => undefined;
    await transport.start();
    // The initialized notification makes the SDK open its GET stream.
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    try {
      await vi.waitFor(() => expect(told).toEqual([TOO_MANY_EMPTY]), { timeout: 5_000 });
    } finally {
      await transport.close();
    }
  });
});
