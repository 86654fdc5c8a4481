import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { boundedFetch, MCP_MESSAGE_MAX_BYTES } from '../../src/mcp/mcp-bounded-fetch.js';
import { cutErrorBody, MCP_ERROR_BODY_CUT, MCP_ERROR_BODY_MAX_BYTES } from '../../src/mcp/mcp-error-body.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

const http = httpServerPerTest();

/** The error the SDK's transport fails a `ping` with, when the server answers `status` and `body`; and what `overflow` was told. */
async function failedPing(status: number, body: (write: (text: string) => void) => void): Promise<{ error: Error; told: string[] }> {
  const url = await http.serve((_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    body((text) => res.write(text));
    res.end();
  });
  const told: string[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: boundedFetch((why) => told.push(why)) });
  transport.onerror = () => undefined;
  await transport.start();
  const error = await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' }).then(
    () => new Error('the send succeeded'),
    (e: unknown) => e as Error,
  );
  await transport.close();
  return { error, told };
}

// An answer with an error status went by unbounded, and the SDK reads such a body whole into
// its error's message: a 40 MiB `500` was read, and kept, whole.
describe('an MCP server over HTTP answering with an error status', () => {
  it('and a 40 MiB body has it cut, the error saying so', async () => {
    const piece = 'x'.repeat(1024 * 1024);
    const { error, told } = await failedPing(500, (write) => {
      for (let i = 0; i < (MCP_MESSAGE_MAX_BYTES * 4) / piece.length; i++) write(piece);
    });
    expect(error.message).toMatch(/^Streamable HTTP error: Error POSTing to endpoint: x+ \[error answer cut at 64 KiB by rxharness\]$/);
    expect(error.message.length).toBeLessThan(MCP_ERROR_BODY_MAX_BYTES + 200);
    // The answer was an error anyway: the connection is not given up for its length.
    expect(told).toEqual([]);
  });

  it('cuts at the start of a character, not inside one', async () => {
    const { error } = await failedPing(502, (write) => write(`a${'é'.repeat(MCP_ERROR_BODY_MAX_BYTES)}`));
    expect(error.message).toContain(`é${MCP_ERROR_BODY_CUT}`);
    expect(error.message).not.toContain('\uFFFD');
  });

  it('and a short body has it whole', async () => {
    const { error, told } = await failedPing(400, (write) => write('no such session'));
    expect(error.message).toBe('Streamable HTTP error: Error POSTing to endpoint: no such session');
    expect(told).toEqual([]);
  });

  it('and a body that never ends has it read no further than the cut', async () => {
    let pulls = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => void (pulls += 1, controller.enqueue(new Uint8Array(1024).fill(0x78))),
      cancel: () => void (cancelled = true),
    });
    const text = await new Response(cutErrorBody(endless)).text();
    expect(text).toBe(`${'x'.repeat(MCP_ERROR_BODY_MAX_BYTES)}${MCP_ERROR_BODY_CUT}`);
    expect(cancelled).toBe(true);
    expect(pulls).toBeLessThan(MCP_ERROR_BODY_MAX_BYTES / 1024 + 4);
  });

  it('cuts back to the start of a character begun in an earlier chunk', async () => {
    // `é` is two bytes: the first chunk ends with its first, at the cut.
    const bytes = new TextEncoder().encode(`${'a'.repeat(MCP_ERROR_BODY_MAX_BYTES - 1)}é tail`);
    const chunks = [bytes.subarray(0, MCP_ERROR_BODY_MAX_BYTES), bytes.subarray(MCP_ERROR_BODY_MAX_BYTES)];
    const split = new ReadableStream<Uint8Array>({ start: (controller) => (chunks.forEach((c) => controller.enqueue(c)), controller.close()) });
    const text = await new Response(cutErrorBody(split)).text();
    expect(text).toBe(`${'a'.repeat(MCP_ERROR_BODY_MAX_BYTES - 1)}${MCP_ERROR_BODY_CUT}`);
  });
});
