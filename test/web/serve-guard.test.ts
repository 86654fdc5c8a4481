import { describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../src/web/demo-server.js';
import { isLoopbackAddress, isWildcardAddress, trustedHost } from '../../src/web/trusted-host.js';
import { useDemoServers, type DemoStart } from '../support/demo-servers.js';
import { rawRequest, type RawAnswer } from './raw-request.js';

const servers = useDemoServers();

/** A demo server on the offline demo model, with `options`; closed after the test. */
async function start(options: DemoStart['server'] = {}): Promise<DemoServer> {
  return (await servers.start({ server: options })).demo;
}

/** Each API route (and a path outside them), as an attacker without the token would try it. */
const API_ROUTES: ReadonlyArray<[string, string, unknown?]> = [
  ['POST', '/api/runs', { prompt: 'rm -rf ~' }],
  ['GET', '/api/runs/run_1'],
  ['GET', '/api/runs/run_1/events'],
  ['DELETE', '/api/runs/run_1'],
  ['POST', '/api/runs/run_1/approvals/call_1', { decision: 'approve' }],
  ['GET', '/api/sessions'],
  ['GET', '/api/anything-added-later'],
  ['POST', '/'],
];

function expectNoFraming(answer: RawAnswer): void {
  expect(answer.headers['x-frame-options']).toBe('DENY');
  expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
}

describe('serve: the token', () => {
  it('refuses every API request without the token (401), and with a wrong one; no run starts', async () => {
    const server = await start();
    for (const [method, path, body] of API_ROUTES) {
      const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong-token-wrong-token' }, { cookie: `rxharness-token-${new URL(server.url).port}=nope` }];
      for (const headers of attempts) {
        const answer = await rawRequest(new URL(path, server.url).href, { method, headers, body });
        expect({ method, path, status: answer.status }).toEqual({ method, path, status: 401 });
        expect(answer.headers['www-authenticate']).toBe('Bearer realm="rxharness"');
        expect(JSON.parse(answer.body)).toEqual({ error: expect.stringContaining('this server needs its token') });
        expectNoFraming(answer);
      }
    }
    expect(server.engine.runs.list()).toEqual([]);
  });

  it('lets the right token through, as a Bearer header or as the cookie the address sets', async () => {
    const server = await start();
    expect(server.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/\\?token=${server.token}$`));
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const bearer = await rawRequest(new URL('/api/runs', server.url).href, { method: 'POST', headers: { authorization: `Bearer ${server.token}` }, body: { prompt: 'hi' } });
    expect(bearer.status).toBe(201);

    // the printed address: a cookie (HttpOnly, SameSite=Strict) and a redirect that drops the token
    const login = await rawRequest(`${server.url}&run=run_9`);
    expect(login.status).toBe(303);
    expect(login.headers.location).toBe('/?run=run_9');
    const port = new URL(server.url).port;
    expect(login.headers['set-cookie']).toEqual([`rxharness-token-${port}=${server.token}; HttpOnly; SameSite=Strict; Path=/api`]);
    const cookie = login.headers['set-cookie']![0]!.split(';', 1)[0]!;
    const { runId } = JSON.parse(bearer.body) as { runId: string };
    expect((await rawRequest(new URL(`/api/runs/${runId}`, server.url).href, { headers: { cookie: `other=1; ${cookie}` } })).status).toBe(200);

    const wrong = await rawRequest(new URL('/?token=guess-guess-guess-guess', server.url).href);
    expect(wrong.status).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('takes a token of your own, and refuses one too short to be secret', async () => {
    const server = await start({ token: 'my-own-secret-of-24-chars' });
    expect(server.token).toBe('my-own-secret-of-24-chars');
    const ok = await rawRequest(new URL('/api/runs/run_1', server.url).href, { headers: { authorization: 'Bearer my-own-secret-of-24-chars' } });
    expect(ok.status).toBe(404);
    await expect(startDemoServer({ port: 0, token: 'short' })).rejects.toThrow('token must be a secret of 16 to 512 characters');
    await expect(startDemoServer({ port: 0, token: 'has spaces in it, sixteen+' })).rejects.toThrow(TypeError);
  });

  it('every answer forbids framing: the page (with its CSP), the API, 404s, 403s, redirects', async () => {
    const server = await start();
    const auth = { authorization: `Bearer ${server.token}` };
    const page = await rawRequest(new URL('/', server.url).href);
    // no inline code runs but the page's own script and style, named by hash (no 'unsafe-inline')
    expect(page.headers['content-security-policy']).toMatch(
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]{43}='; style-src 'sha256-[A-Za-z0-9+/]{43}='; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'$/,
    );
    const answers = [
      page,
      await rawRequest(server.url),
      await rawRequest(new URL('/api/runs', server.url).href, { method: 'POST', headers: auth, body: { prompt: 'hi' } }),
      await rawRequest(new URL('/api/runs/run_x', server.url).href, { headers: auth }),
      await rawRequest(new URL('/app.js', server.url).href, { headers: auth }),
      await rawRequest(new URL('/', server.url).href, { headers: { host: 'evil.example' } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 303, 201, 404, 404, 403]);
    for (const answer of answers) {
      expectNoFraming(answer);
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
    }
  });
});

describe('serve: loopback in every spelling', () => {
  it.each(['127.1', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1', 'localhost'])(
    'bound to %s (loopback): a request for another host name is refused (DNS rebinding)',
    async (host) => {
      const server = await start({ host });
      expect(server.loopback).toBe(true);
      const url = new URL('/api/runs', server.url).href;
      const auth = { authorization: `Bearer ${server.token}` };
      const rebound = await rawRequest(url, { method: 'POST', headers: { ...auth, host: 'evil.example' }, body: { prompt: 'rm -rf ~' } });
      expect(rebound.status).toBe(403);
      expect(server.engine.runs.list()).toEqual([]);
      const direct = await rawRequest(url, { method: 'POST', headers: auth, body: { prompt: 'hi' } });
      expect(direct.status).toBe(201);
    },
  );

  it('recognises loopback addresses and Host headers however they are written', () => {
    for (const address of ['127.0.0.1', '127.255.0.9', '::1', '0:0:0:0:0:0:0:1', '0000::0001', '::ffff:127.0.0.1', '::ffff:7f00:1', '[::1]']) {
      expect({ address, loopback: isLoopbackAddress(address) }).toEqual({ address, loopback: true });
    }
    for (const address of ['0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', '128.0.0.1', 'localhost', '127.1', '']) {
      expect({ address, loopback: isLoopbackAddress(address) }).toEqual({ address, loopback: false });
    }
    for (const header of ['localhost', 'LOCALHOST:80', '127.1:4173', '0x7f.1', '2130706433', '[::1]:80', '[0:0:0:0:0:0:0:1]:4173', '[::ffff:127.0.0.1]', '127.0.0.1']) {
      expect({ header, trusted: trustedHost(header) }).toEqual({ header, trusted: true });
    }
    for (const header of ['evil.example', '127.0.0.1.evil.example', 'evil@127.0.0.1', '127.0.0.1/x', '[::ffff:10.0.0.1]', '[zz]', '', '10.0.0.1:80']) {
      expect({ header, trusted: trustedHost(header) }).toEqual({ header, trusted: false });
    }
    expect(trustedHost(undefined)).toBe(false);
    expect(['0.0.0.0', '::', '0:0:0:0:0:0:0:0'].map(isWildcardAddress)).toEqual([true, true, true]);
    expect(['127.0.0.1', '::1', '10.0.0.1'].map(isWildcardAddress)).toEqual([false, false, false]);
  });

  it('refuses to listen beyond loopback without a token of your own; with one it listens and says so', async () => {
    await expect(startDemoServer({ port: 0, host: '0.0.0.0' })).rejects.toThrow(/^refusing to serve on 0\.0\.0\.0 \(0\.0\.0\.0\) without a token of your choosing/);
    const server = await start({ host: '0.0.0.0', token: 'a-token-for-the-network-1234' });
    expect(server.loopback).toBe(false);
    // no Host check off loopback (the name is the machine's): the token is what guards it
    const url = `http://127.0.0.1:${new URL(server.url).port}/api/runs`;
    expect((await rawRequest(url, { method: 'POST', headers: { host: 'my-box.lan' }, body: { prompt: 'hi' } })).status).toBe(401);
    const ok = await rawRequest(url, { method: 'POST', headers: { host: 'my-box.lan', authorization: 'Bearer a-token-for-the-network-1234' }, body: { prompt: 'hi' } });
    expect(ok.status).toBe(201);
  });
});
