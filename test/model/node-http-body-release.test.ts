import { describe, expect, it } from 'vitest';
import { collected } from '../support/collected.js';
import { nodeHttpFetch } from '../../src/model/node-http-fetch.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

// A chat request's body (its JSON: system prompt, tool schemas, history) is sent once; the
// reply may stream for minutes. What the transport keeps while it streams, every live run
// keeps: the body must not be among it.

const http = httpServerPerTest();
describe('node:http transport: the request body', () => {
  it('is let go once sent, while the reply still streams', async () => {
    let finish: (() => void) | undefined;
    let received = 0;
    const url = await http.serve((req, res) => {
      req.on('data', (piece: Buffer) => (received += piece.length));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
        finish = () => res.end('data: [DONE]\n\n');
      });
    });
    // Made in a function of its own, so that only the transport could still hold the body.
    const start = (): { ref: WeakRef<Uint8Array>; reply: Promise<Response> } => {
      const body = new Uint8Array(1 << 20).fill(65);
      return { ref: new WeakRef(body), reply: nodeHttpFetch(`${url}/v1/chat/completions`, { method: 'POST', body }) };
    };
    const { ref, reply } = start();
    const response = await reply;
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    expect(received).toBe(1 << 20);
    expect(await collected(ref)).toBe(true);
    // The reply is still open and whole.
    finish!();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: [DONE]\n\n');
  });
});
