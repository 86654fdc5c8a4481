import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { demoRequestHandler } from '../../src/web/serve-request.js';
import { useDemoServers } from '../support/demo-servers.js';

const servers = useDemoServers();
let plain: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (plain ? plain.close(resolve) : resolve(undefined)));
  plain = undefined;
});

/** Writes one request line as given (a client such as `fetch` would normalise it) and reads the status line. */
function statusOf(port: number, target: string, headers = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}Connection: close\r\n\r\n`));
    socket.setEncoding('utf8').on('data', (text: string) => (got += text));
    socket.on('close', () => resolve(got.split('\r\n', 1)[0]!));
    socket.on('error', reject);
  });
}

describe('serve: request targets that are no path', () => {
  // Each made `new URL(target, base)` throw in the listener: an uncaught exception, and the
  // process died. Any web page can send one: fetch('http://127.0.0.1:4173//a:b', { mode: 'no-cors' }).
  it.each(['//a:b', '//[', '//%', '//a:99999/x'])('%s is a 400, with or without the token, and the server goes on', async (target) => {
    const { demo } = await servers.start();
    const port = Number(new URL(demo.url).port);
    expect(await statusOf(port, target)).toBe('HTTP/1.1 400 Bad Request');
    expect(await statusOf(port, target, `Authorization: Bearer ${demo.token}\r\n`)).toBe('HTTP/1.1 400 Bad Request');
    expect(await statusOf(port, '/')).toBe('HTTP/1.1 200 OK');
  });

  it('a route that throws is a 500 for its request only, not the end of the process', async () => {
    const handler = demoRequestHandler({
      page: { html: '<p>page</p>', csp: "default-src 'none'" },
      runs: (req) => {
        if (req.url === '/api/boom') throw new Error('a bug in a route');
        return false;
      },
      token: 'a-token-of-twenty-four-ch',
      cookieName: 'rxharness-token-test',
      checkHost: true,
    });
    plain = createServer(handler);
    await new Promise<void>((resolve) => plain!.listen(0, '127.0.0.1', resolve));
    const { port } = plain.address() as AddressInfo;
    const bearer = 'Authorization: Bearer a-token-of-twenty-four-ch\r\n';
    expect(await statusOf(port, '/api/boom', bearer)).toBe('HTTP/1.1 500 Internal Server Error');
    expect(await statusOf(port, '/api/else', bearer)).toBe('HTTP/1.1 404 Not Found');
  });
});
