import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useDemoServers } from '../support/demo-servers.js';

/**
 * `rxharness serve` against requests no `fetch` would write: Host headers a DNS-rebinding
 * page (or a confused proxy) could bring, smuggling shapes, upgrades and oversized headers,
 * written byte for byte on a socket to a real started server.
 */
const servers = useDemoServers();

/** Writes `text` as is and resolves the status line, once the server closed or a whole head came (an upgrade may keep the socket). */
function statusOf(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    const done = (): void => {
      socket.destroy();
      resolve(got.split('\r\n', 1)[0]!);
    };
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      got += chunk;
      if (got.includes('\r\n\r\n')) done();
    });
    socket.on('close', done);
    socket.on('error', reject);
  });
}

/** One request: the start line, then the header lines, then `body` (no Content-Length is added). */
function request(startLine: string, headers: readonly string[], body = ''): string {
  return `${startLine}\r\n${[...headers, 'Connection: close'].join('\r\n')}\r\n\r\n${body}`;
}

/** A demo server, its port and the header lines that carry its token. */
async function start(): Promise<{ port: number; auth: string[]; runs: () => number }> {
  const { demo } = await servers.start();
  const port = Number(new URL(demo.url).port);
  const auth = [`Authorization: Bearer ${demo.token}`, `Cookie: rxharness-token-${port}=${demo.token}`];
  return { port, auth, runs: () => demo.engine.runs.list().length };
}

const BODY = '{"prompt":"rm -rf ~"}';
const JSON_BODY = ['Content-Type: application/json'];

describe('serve: Host headers of a rebinding page, a proxy or a hand-written client', () => {
  it.each([
    ['a trailing dot (another name to DNS, not loopback to a browser)', 'localhost.'],
    ['a rebinding name that resolves to 127.0.0.1', '127.0.0.1.nip.io'],
    ['a name under localhost (browsers resolve it to loopback; another site all the same)', 'app.localhost'],
    ['localhost as a label of another name', 'localhost.evil.example'],
    ['userinfo that a URL parser would drop', 'localhost:80@evil.example'],
    ['a space inside', 'localhost evil.example'],
  ])('%s (%s) is refused (403), even with the token; no run starts', async (_what, host) => {
    const { port, auth, runs } = await start();
    expect(await statusOf(port, request('POST /api/runs HTTP/1.1', [`Host: ${host}`, ...auth, ...JSON_BODY, `Content-Length: ${BODY.length}`], BODY))).toBe('HTTP/1.1 403 Forbidden');
    expect(await statusOf(port, request('GET / HTTP/1.1', [`Host: ${host}`]))).toBe('HTTP/1.1 403 Forbidden');
    expect(runs()).toBe(0);
  });

  it('no Host at all: HTTP/1.0 (which may omit it) is 403, HTTP/1.1 is 400', async () => {
    const { port, auth, runs } = await start();
    expect(await statusOf(port, request('GET / HTTP/1.0', []))).toBe('HTTP/1.1 403 Forbidden');
    expect(await statusOf(port, request('POST /api/runs HTTP/1.0', [...auth, ...JSON_BODY, `Content-Length: ${BODY.length}`], BODY))).toBe('HTTP/1.1 403 Forbidden');
    expect(await statusOf(port, request('GET / HTTP/1.1', []))).toBe('HTTP/1.1 400 Bad Request');
    expect(runs()).toBe(0);
  });

  it('two Host headers are 400 in either order: the check would read the first, a proxy may route by the last', async () => {
    const { port, auth, runs } = await start();
    for (const hosts of [['127.0.0.1', 'evil.example'], ['evil.example', '127.0.0.1'], ['localhost', 'localhost']]) {
      const lines = hosts.map((host) => `Host: ${host}:${port}`);
      expect({ hosts, status: await statusOf(port, request('POST /api/runs HTTP/1.1', [...lines, ...auth, ...JSON_BODY, `Content-Length: ${BODY.length}`], BODY)) }).toEqual({
        hosts,
        status: 'HTTP/1.1 400 Bad Request',
      });
    }
    expect(runs()).toBe(0);
  });

  it('an absolute-form target naming another host starts nothing: the Host header is what is checked', async () => {
    const { port, auth, runs } = await start();
    const post = (target: string, host: string): Promise<string> =>
      statusOf(port, request(`POST ${target} HTTP/1.1`, [`Host: ${host}`, ...auth, ...JSON_BODY, `Content-Length: ${BODY.length}`], BODY));
    expect(await post(`http://127.0.0.1:${port}/api/runs`, 'evil.example')).toBe('HTTP/1.1 403 Forbidden');
    // with a loopback Host, a foreign target is no route of the server's
    expect(await post('http://evil.example/api/runs', `127.0.0.1:${port}`)).toBe('HTTP/1.1 404 Not Found');
    expect(runs()).toBe(0);
  });
});

describe('serve: smuggling, upgrades and oversized headers', () => {
  it.each([
    ['Content-Length and Transfer-Encoding together', ['Content-Length: 4', 'Transfer-Encoding: chunked'], `${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`],
    ['an obfuscated Transfer-Encoding', ['Transfer-Encoding: chunked, identity'], `${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`],
    ['two Content-Lengths', [`Content-Length: ${BODY.length}`, 'Content-Length: 0'], BODY],
  ])('%s is 400 before any route, with the token; no run starts', async (_what, framing, body) => {
    const { port, auth, runs } = await start();
    expect(await statusOf(port, request('POST /api/runs HTTP/1.1', [`Host: 127.0.0.1:${port}`, ...auth, ...JSON_BODY, ...framing], body))).toBe('HTTP/1.1 400 Bad Request');
    expect(runs()).toBe(0);
  });

  it('a WebSocket or h2c upgrade is never switched (no 101): refused without the token or from another host', async () => {
    const { port } = await start();
    const ws = ['Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 13', 'Origin: http://evil.example'];
    const upgrade = (target: string, host: string, lines: string[]): Promise<string> => statusOf(port, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\n${lines.join('\r\n')}\r\n\r\n`);
    expect(await upgrade('/api/runs/run_1/events', `127.0.0.1:${port}`, ws)).toBe('HTTP/1.1 401 Unauthorized');
    expect(await upgrade('/', `evil.example:${port}`, ws)).toBe('HTTP/1.1 403 Forbidden');
    const h2c = ['Upgrade: h2c', 'Connection: Upgrade, HTTP2-Settings', 'HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA'];
    expect(await upgrade('/api/sessions', `127.0.0.1:${port}`, h2c)).toBe('HTTP/1.1 401 Unauthorized');
  });

  it('a header line of 100 kB is 431, and the server goes on answering', async () => {
    const { port } = await start();
    expect(await statusOf(port, request('GET / HTTP/1.1', [`Host: 127.0.0.1:${port}`, `X-Pad: ${'a'.repeat(100_000)}`]))).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(await statusOf(port, request('GET / HTTP/1.1', [`Host: 127.0.0.1:${port}`]))).toBe('HTTP/1.1 200 OK');
  });
});
