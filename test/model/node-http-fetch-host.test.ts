import type { Agent } from 'node:http';
import net from 'node:net';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { agentFor, nodeHttpFetch } from '../../src/model/node-http-fetch.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';
import { HELLO, modelAt, sseReply } from './node-http-support.js';

// The node:http transport hands Node its request headers as a flat list, to which Node adds
// neither `Host` nor the URL's credentials: the transport writes them itself. What a server
// reads must be what Node wrote for the headers as an object: every header as given (names,
// order, values), the body's length, `Host` with the port only when it is not the scheme's
// and an IPv6 literal bracketed, `Authorization` from `user:pass@` when the caller sent none.

const http = httpServerPerTest();
const agent = agentFor('http:') as Agent & { createConnection: (options: net.NetConnectOpts) => net.Socket };
const ownConnection = agent.createConnection;
afterEach(() => void (agent.createConnection = ownConnection));

/** A server that records each request's raw header list (names as sent, in order) and answers with a short stream. */
async function recordingServer(): Promise<{ url: string; port: string; raw: string[][] }> {
  const raw: string[][] = [];
  const url = await http.serve((req, res) => {
    raw.push(req.rawHeaders);
    req.resume().on('end', () => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(sseReply(['hi'])));
  });
  return { url, port: new URL(url).port, raw };
}

/** Sends the shared agent's new connections to `port` on 127.0.0.1, whatever host and port the URL names (port 80, `[::1]`). */
function connectAllTo(port: string): void {
  agent.createConnection = (options) => net.createConnection({ ...(options as net.TcpNetConnectOpts), host: '127.0.0.1', port: Number(port) });
}

/** The value of the one header named `name` (any case) in a raw list; fails on none or several. */
function only(raw: readonly string[], name: string): string {
  const values = raw.flatMap((key, i) => (i % 2 === 0 && key.toLowerCase() === name ? [raw[i + 1]!] : []));
  expect(values, `one ${name} header in ${JSON.stringify(raw)}`).toHaveLength(1);
  return values[0]!;
}

async function send(url: string, init: RequestInit = {}): Promise<void> {
  await (await nodeHttpFetch(url, { method: 'POST', body: '{}', ...init })).text();
}

describe('node:http transport: the request head', () => {
  it('sends the given headers as given, then accept-encoding, the body length and Host, with nothing added twice', async () => {
    const { url, port, raw } = await recordingServer();
    const headers = new Headers({ 'Content-Type': 'application/json', 'X-Trace': 'a' });
    headers.append('x-trace', 'b');
    await send(`${url}/v1/chat/completions`, { headers, body: '{"é":1}' });
    await send(`${url}/v1/chat/completions`, { headers: { 'accept-encoding': 'identity', 'content-length': '99' }, body: new Uint8Array([1, 2, 3]) });
    await send(`${url}/v1/chat/completions`, { headers: { 'x-empty': 'yes' }, body: undefined });
    const host = ['Host', `127.0.0.1:${port}`, 'Connection', 'keep-alive'];
    expect(raw).toEqual([
      ['content-type', 'application/json', 'x-trace', 'a, b', 'accept-encoding', 'gzip, deflate, br', 'content-length', '8', ...host],
      ['accept-encoding', 'identity', 'content-length', '3', ...host],
      // A POST without a body: an empty length (as Node gives one it ends), not a chunked body.
      ['x-empty', 'yes', 'accept-encoding', 'gzip, deflate, br', 'Content-Length', '0', ...host],
    ]);
  });

  it("the openai client's request: its headers once each, as it named them, and one Host", async () => {
    const { url, port, raw } = await recordingServer();
    await lastValueFrom(modelAt(url, { apiKey: 'key-one' }).stream(HELLO).pipe(toArray()));
    const [sent] = raw as [string[]];
    const names = sent.filter((_, i) => i % 2 === 0);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    expect(names.filter((n) => n !== 'Host' && n !== 'Connection').every((n) => n === n.toLowerCase())).toBe(true);
    expect(only(sent, 'authorization')).toBe('Bearer key-one');
    expect(only(sent, 'x-stainless-retry-count')).toBe('0');
    expect(only(sent, 'content-length')).toMatch(/^[1-9]\d*$/);
    expect(only(sent, 'host')).toBe(`127.0.0.1:${port}`);
  });

  it("Host: the port only when it is not the scheme's, an IPv6 literal in brackets", async () => {
    const { port, raw } = await recordingServer();
    connectAllTo(port);
    const urls = ['http://model.internal/v1', 'http://model.internal:80/v1', 'http://model.internal:8080/v1', 'http://[::1]/v1', 'http://[::1]:8080/v1', 'http://[2001:db8::7]:443/v1', 'http://MODEL.Internal:81/v1'];
    for (const url of urls) await send(url);
    expect(raw.map((sent) => only(sent, 'host'))).toEqual(['model.internal', 'model.internal', 'model.internal:8080', '[::1]', '[::1]:8080', '[2001:db8::7]:443', 'model.internal:81']);
  });

  it("a caller's Host stays the only one", async () => {
    const { url, raw } = await recordingServer();
    await send(`${url}/v1`, { headers: { host: 'elsewhere.example' } });
    expect(only(raw[0]!, 'host')).toBe('elsewhere.example');
  });

  it("the URL's credentials make a Basic Authorization when the request brings none; a given one wins", async () => {
    const { port, raw } = await recordingServer();
    await send(`http://user:p%40ss@127.0.0.1:${port}/v1`);
    await send(`http://user:p%40ss@127.0.0.1:${port}/v1`, { headers: { authorization: 'Bearer mine' } });
    expect(raw.map((sent) => only(sent, 'authorization'))).toEqual([`Basic ${Buffer.from('user:p@ss').toString('base64')}`, 'Bearer mine']);
  });
});
