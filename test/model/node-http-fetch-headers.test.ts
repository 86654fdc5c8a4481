import type { IncomingHttpHeaders } from 'node:http';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nodeHttpFetch } from '../../src/model/node-http-fetch.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';
import { HELLO, modelAt, sseReply } from './node-http-support.js';

// The node:http transport reads the openai client's `Headers` as they are (no copy per
// request): what reaches the server must be what the client built, whatever form the headers
// come in, and a model's key must be its own.

const http = httpServerPerTest();
afterEach(() => void vi.unstubAllEnvs());

/** A server that records each request's headers and answers with a short stream. */
async function recordingServer(): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const url = await http.serve((req, res) => {
    seen.push(req.headers);
    req.resume().on('end', () => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(sseReply(['hi'])));
  });
  return { url, seen };
}

/** The headers a request sent, without those Node's agent adds (host, connection). */
function sent(headers: IncomingHttpHeaders): Record<string, unknown> {
  const { host: _host, connection: _connection, ...rest } = headers;
  return rest;
}

describe('node:http transport: request headers', () => {
  it('a Headers, a plain object and a list of pairs send the same headers: names lower-cased, repeated values joined, accept-encoding and content-length added', async () => {
    const { url, seen } = await recordingServer();
    const headers = new Headers({ 'Content-Type': 'application/json', 'X-Trace': 'a' });
    headers.append('x-trace', 'b');
    const forms: RequestInit['headers'][] = [headers, { 'Content-Type': 'application/json', 'X-Trace': 'a, b' }, [['Content-Type', 'application/json'], ['X-Trace', 'a'], ['x-trace', 'b']]];
    for (const form of forms) await (await nodeHttpFetch(`${url}/v1/chat/completions`, { method: 'POST', headers: form, body: '{"é":1}' })).text();
    const expected = { 'content-type': 'application/json', 'x-trace': 'a, b', 'accept-encoding': 'gzip, deflate, br', 'content-length': '8' };
    expect(seen.map(sent)).toEqual([expected, expected, expected]);
  });

  it("the client's headers reach the server as it built them, and two models on one server each send their own key", async () => {
    const { url, seen } = await recordingServer();
    const first = modelAt(url, { apiKey: 'key-one' });
    const second = modelAt(url, { apiKey: 'key-two' });
    vi.stubEnv('OPENAI_API_KEY', ''); // the keyless model must not find one in the environment
    const keyless = modelAt(url, { apiKey: undefined });
    for (const model of [first, second, first, keyless]) await lastValueFrom(model.stream(HELLO).pipe(toArray()));
    expect(seen.map((h) => h.authorization)).toEqual(['Bearer key-one', 'Bearer key-two', 'Bearer key-one', undefined]);
    for (const headers of seen) {
      expect(headers['content-type']).toBe('application/json');
      expect(headers.accept).toBe('application/json');
      expect(headers['user-agent']).toMatch(/^OpenAI\/JS /);
      expect(headers['x-stainless-retry-count']).toBe('0');
      expect(headers['accept-encoding']).toBe('gzip, deflate, br');
    }
  });
});
