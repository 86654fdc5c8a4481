import { describe, expect, it } from 'vitest';
import { nodeHttpFetch } from '../../src/model/node-http-fetch.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';
import { sseReply } from './node-http-support.js';

// A reply of the node:http transport reads its headers from the raw list Node keeps rather
// than from a `Headers` copied for each reply: what the openai client and rxharness read
// (a request id, the content type, a retry hint, every header when it logs them) must be
// what a fetch `Response` of the same reply says.

const http = httpServerPerTest();

describe('node:http transport: the reply headers', () => {
  it('repeated headers joined, set-cookie apart, names in any case, as a fetch Response of the same reply reads them', async () => {
    const url = await http.serve((req, res) => {
      res.setHeader('Content-Type', 'text/event-stream');
      res.setHeader('X-Multi', ['a', 'b ,c']);
      res.setHeader('Set-Cookie', ['s=1; Path=/', 't=2']);
      res.setHeader('x-request-id', 'req_123');
      res.setHeader('Retry-After-Ms', '250');
      req.resume().on('end', () => res.end(sseReply(['hi'])));
    });
    const ours = await nodeHttpFetch(`${url}/v1/chat/completions`, { method: 'POST', body: '{}' });
    await ours.text();
    const theirs = await fetch(`${url}/v1/chat/completions`, { method: 'POST', body: '{}' });
    await theirs.text();
    const read = (headers: Headers): unknown => ({
      get: ['x-multi', 'X-REQUEST-ID', 'set-cookie', 'content-type', 'retry-after-ms', 'absent'].map((name) => headers.get(name)),
      has: ['X-Multi', 'absent'].map((name) => headers.has(name)),
      setCookie: headers.getSetCookie(),
      entries: [...headers.entries()].filter(([name]) => name !== 'date' && name !== 'keep-alive'),
    });
    expect(read(ours.headers)).toEqual(read(theirs.headers));
    expect(ours.headers.get('x-multi')).toBe('a, b ,c');
    expect(ours.headers.getSetCookie()).toEqual(['s=1; Path=/', 't=2']);
    expect(ours.headers).toBeInstanceOf(Headers);
  });
});
