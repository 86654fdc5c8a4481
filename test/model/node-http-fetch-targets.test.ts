import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeHttpFetch } from '../../src/model/node-http-fetch.js';

// The node:http transport parses each URL string once and shares the result between the
// requests to it: requests to different URLs, one after another, must each still reach
// their own server, path, query and credentials.

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server on a free port that records what each request asked; resolves to its origin. */
async function recording(name: string, seen: string[]): Promise<string> {
  const server = http.createServer((req: IncomingMessage, res) => {
    seen.push(`${name} ${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
    req.resume().on('end', () => res.end('ok'));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('node:http transport: request targets', () => {
  it('alternating URLs each reach their own server, path and query, with the credentials of their own URL', async () => {
    const seen: string[] = [];
    const a = await recording('a', seen);
    const b = await recording('b', seen);
    const urls = [`http://${a}/v1/chat/completions?api-version=1`, `http://user:pw@${b}/other/v1/chat/completions`, `http://${b}/other/v1/chat/completions`];
    for (let round = 0; round < 2; round++) {
      for (const url of urls) expect(await (await nodeHttpFetch(url, { method: 'POST', body: '{}' })).text()).toBe('ok');
    }
    const once = ['a POST /v1/chat/completions?api-version=1 -', `b POST /other/v1/chat/completions Basic ${Buffer.from('user:pw').toString('base64')}`, 'b POST /other/v1/chat/completions -'];
    expect(seen).toEqual([...once, ...once]);
  });

  it('a flood of distinct URLs, past the bound of parsed targets, each still reaches its own path and query', async () => {
    const seen: string[] = [];
    const a = await recording('a', seen);
    const asked: string[] = [];
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 300; i++) {
        const path = `/v1/chat/completions?n=${i}`;
        asked.push(`a POST ${path} -`);
        expect(await (await nodeHttpFetch(`http://${a}${path}`, { method: 'POST', body: '{}' })).text()).toBe('ok');
      }
    }
    expect(seen).toEqual(asked);
  });

  it('a URL of another protocol is refused, the second time too', async () => {
    for (let i = 0; i < 2; i++) await expect(nodeHttpFetch('ftp://127.0.0.1/v1/chat/completions')).rejects.toThrow('the model transport speaks http and https only, not ftp: (ftp://127.0.0.1/v1/chat/completions)');
  });
});
