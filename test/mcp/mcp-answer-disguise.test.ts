import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { boundedFetch, MCP_BATCH_MAX_MESSAGES, MCP_EMPTY_EVENTS_MAX, MCP_MESSAGE_MAX_BYTES } from '../../src/mcp/mcp-bounded-fetch.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

const http = httpServerPerTest();
afterEach(() => void vi.useRealTimers());

const BATCH_TOO_BIG = `its answer is a batch of more than ${MCP_BATCH_MAX_MESSAGES} messages`;
// JSON to the SDK, which reads the media type alone; an event stream to a search of the header.
const JSON_NAMING_A_STREAM = 'application/json; x="text/event-stream"';
const BOM = '\uFEFF';

// Answers to no request.
const junk = (n: number): string => Array.from({ length: n }, (_, i) => `{"jsonrpc":"2.0","id":${1_000 + i},"result":{}}`).join(',');

/** What boundedFetch lets be read of an answer of `body` typed `type`, and what it told `overflow`. */
async function read(body: string, type: string): Promise<{ parsed: unknown; told: string[] }> {
  const url = await http.serve((_req, res) => void res.writeHead(200, { 'content-type': type }).end(body));
  const told: string[] = [];
  const response = await boundedFetch((why) => told.push(why))(url, { method: 'POST' });
  // As the SDK reads a JSON answer (dropping a byte order mark).
  const parsed = await response.json().catch((e: unknown) => e);
  return { parsed, told };
}

// The bound on a JSON batch looked at the first byte past blanks, and chose a JSON answer's
// bounds by a search of the content-type header for `text/event-stream`; the SDK decodes the
// body dropping a byte order mark, and reads its media type alone. A batch of 50,000 (and a
// JSON answer of 20 MiB) went past every bound, to be parsed whole.
describe('an MCP server answering over HTTP with a JSON answer in disguise', () => {
  it('a batch behind a UTF-8 byte order mark is counted like any other', async () => {
    const { parsed, told } = await read(`${BOM}[${junk(MCP_BATCH_MAX_MESSAGES + 1)}]`, 'application/json');
    expect(told).toEqual([BATCH_TOO_BIG]);
    expect(parsed).toBeInstanceOf(Error);
  });

  it('a batch of at most the bound behind a byte order mark is read as it came', async () => {
    const { parsed, told } = await read(`${BOM} [${junk(MCP_BATCH_MAX_MESSAGES)}]`, 'application/json');
    expect(told).toEqual([]);
    expect(parsed).toHaveLength(MCP_BATCH_MAX_MESSAGES);
  });

  it('a batch whose content-type names an event stream in a parameter is counted as JSON', async () => {
    const { parsed, told } = await read(`[${junk(MCP_BATCH_MAX_MESSAGES + 1)}]`, JSON_NAMING_A_STREAM);
    expect(told).toEqual([BATCH_TOO_BIG]);
    expect(parsed).toBeInstanceOf(Error);
  });

  it('one message of that type over the bound in all, with blank lines in it, fails', async () => {
    const blanks = `${' '.repeat(1024 * 1024)}\n\n`;
    const body = `{"jsonrpc":"2.0","id":1,"result":{}${blanks.repeat(Math.ceil((MCP_MESSAGE_MAX_BYTES * 1.5) / blanks.length))}}`;
    const { parsed, told } = await read(body, JSON_NAMING_A_STREAM);
    expect(told).toEqual([`its answer went over ${MCP_MESSAGE_MAX_BYTES / 1024 / 1024} MiB in all`]);
    expect(parsed).toBeInstanceOf(Error);
  });

  // The bound's clock (Date) stands still: every event ends within one window, whatever the load.
  it('an event stream typed in capitals, with parameters, is bounded as an event stream', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { told } = await read(': keep-alive\n\n'.repeat(MCP_EMPTY_EVENTS_MAX * 2), 'Text/Event-Stream; charset=utf-8');
    expect(told).toEqual([`its event stream ended more than ${MCP_EMPTY_EVENTS_MAX} events without data (keep-alive comments) within 1 s`]);
  });

  it.each([
    ['a byte order mark first', BOM, 'application/json'],
    ['a content-type naming an event stream in a parameter', '', JSON_NAMING_A_STREAM],
  ])('through the SDK transport, %s: no message of the batch is handed on', async (_name, prefix, type) => {
    const url = await http.serve((_req, res) => void res.writeHead(200, { 'content-type': type }).end(`${prefix}[${junk(50_000)}]`));
    const told: string[] = [];
    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: boundedFetch((why) => told.push(why)) });
    let heard = 0;
    transport.onmessage = () => void (heard += 1);
    transport.onerror = () => undefined;
    await transport.start();
    // A request in the batch sent makes the SDK read the answer as messages.
    const sent = await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' }).then(() => 'sent', (e: unknown) => e);
    await transport.close();
    expect(told).toEqual([BATCH_TOO_BIG]);
    expect(sent).toBeInstanceOf(Error);
    expect(heard).toBe(0);
  });
});
