import { describe, expect, it } from 'vitest';
import { boundedFetch, MCP_BATCH_MAX_MESSAGES } from '../../src/mcp/mcp-bounded-fetch.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

const http = httpServerPerTest();

// Answers to no request, each holding what looks like a batch's parts in a string and deeper.
const junk = (n: number): string => Array.from({ length: n }, (_, i) => `{"jsonrpc":"2.0","id":${1_000 + i},"result":{"a":[1,2],"s":"x,\\",y"}}`).join(',');

/** What boundedFetch lets the SDK read of an answer of `body`, and what it told `overflow`. */
async function read(body: string): Promise<{ parsed: unknown; told: string[] }> {
  const url = await http.serve((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  const told: string[] = [];
  const response = await boundedFetch((why) => told.push(why))(url, { method: 'POST' });
  const parsed = await response.json().catch((e: unknown) => e);
  return { parsed, told };
}

// The SDK parsed a JSON answer whole, and handed on each of its messages: a batch of 200,000
// answers to no request held the event loop before the junk guard saw one.
describe('an MCP server answering over HTTP with a JSON batch', () => {
  it(`of more than ${MCP_BATCH_MAX_MESSAGES} messages is refused before the SDK parses it`, async () => {
    const { parsed, told } = await read(`  [${junk(MCP_BATCH_MAX_MESSAGES + 1)}]`);
    expect(told).toEqual([`its answer is a batch of more than ${MCP_BATCH_MAX_MESSAGES} messages`]);
    expect(parsed).toBeInstanceOf(Error);
  });

  it(`of ${MCP_BATCH_MAX_MESSAGES} messages is read as it came`, async () => {
    const { parsed, told } = await read(`[${junk(MCP_BATCH_MAX_MESSAGES)}]`);
    expect(told).toEqual([]);
    expect(parsed).toHaveLength(MCP_BATCH_MAX_MESSAGES);
  });

  it('no batch, one message holding a long list, is read as it came', async () => {
    const { parsed, told } = await read(`{"jsonrpc":"2.0","id":1,"result":{"content":[${Array.from({ length: 5_000 }, () => '{"type":"text","text":"a"}').join(',')}]}}`);
    expect(told).toEqual([]);
    expect(parsed).toMatchObject({ id: 1 });
  });
});
