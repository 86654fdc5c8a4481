import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../src/web/demo-server.js';
import { chromiumPerFile, HAS_CHROMIUM } from '../support/chromium-per-file.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { useDemoServers } from '../support/demo-servers.js';
import { openLoggedIn, pressRun } from './page-login.js';
import { rawRequest } from './raw-request.js';

/**
 * A page on another port of 127.0.0.1 shares the host's cookies: it cannot read the token's
 * (HttpOnly), but it can set one of the same name with a longer path, which the browser then
 * sends first. The server must still find the real one, or any such page locks the user's
 * page out of its own server. It can also plant big cookies (4 KB each) on `/api`: the server
 * takes a few more than Node's 16 KiB of headers, and past its bound the page says how to
 * clear them.
 */
const servers = useDemoServers();
const browser = chromiumPerFile();
let context: BrowserContext | undefined;
let demo: DemoServer | undefined;
let fixture: DelegationFixture | undefined;
let other: Server | undefined;
afterEach(async () => {
  await context?.close();
  await demo?.close();
  await fixture?.close();
  await new Promise((resolve) => (other ? other.close(resolve) : resolve(undefined)));
  context = demo = fixture = other = undefined;
});

describe('serve: a cookie of the same name set by another page of the host', () => {
  it('the real token among several cookies of its name lets the request in; junk alone does not', async () => {
    const { demo: server } = await servers.start();
    const name = `rxharness-token-${new URL(server.url).port}`;
    const at = new URL('/api/sessions', server.url).href;
    const shadowed = await rawRequest(at, { headers: { cookie: `${name}=junk-junk-junk-junk; other=1; ${name}=${server.token}` } });
    expect(shadowed.status).toBe(200);
    for (const cookie of [`${name}=junk-junk-junk-junk; ${name}=also-junk-also-junk`, `${name}=; ${name}`, `x${name}=${server.token}`]) {
      expect({ cookie, status: (await rawRequest(at, { headers: { cookie } })).status }).toEqual({ cookie, status: 401 });
    }
  });

  it('five planted cookies of 4,000 bytes on /api besides the token: the request still gets in', async () => {
    const { demo: server } = await servers.start();
    const junk = Array.from({ length: 5 }, (_, i) => `junk${i}=${'x'.repeat(4000)}`).join('; ');
    const answer = await rawRequest(new URL('/api/sessions', server.url).href, { headers: { cookie: `${junk}; rxharness-token-${new URL(server.url).port}=${server.token}` } });
    expect(answer.status).toBe(200);
  });

  it.skipIf(!HAS_CHROMIUM)('past the bound (431), the page says to clear the host\'s cookies and open the printed address again (headless Chromium)', async () => {
    fixture = await startDelegationFixture({ main: () => ({ text: 'unreached' }) });
    demo = await startDemoServer({ port: 0, model: fixture.model(), workspace: fixture.workspace.dir, homeDir: fixture.home });
    context = await (await browser()).newContext();
    context.setDefaultTimeout(10_000);
    const own = await context.newPage();
    await openLoggedIn(own, demo.url, demo.token);
    other = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>another local app</title>'));
    await new Promise<void>((resolve) => other!.listen(0, '127.0.0.1', resolve));
    const neighbour = await context.newPage();
    await neighbour.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
    await neighbour.evaluate(`for (let i = 0; i < 20; i++) document.cookie = 'junk' + i + '=' + 'x'.repeat(4000) + '; path=/api'`);
    await own.reload();
    await pressRun(own, 'hello');
    await own.locator('body[data-state="failed"]').waitFor();
    const status = await own.locator('#status').textContent();
    expect(status).toContain('431');
    expect(status).toContain('clear the cookies of 127.0.0.1');
    expect(status).toContain('open the address "rxharness serve" printed again');
    expect(fixture.server.requests).toHaveLength(0);
  });

  it.skipIf(!HAS_CHROMIUM)('a page on another port sets one with document.cookie: the logged-in page still runs (headless Chromium)', async () => {
    fixture = await startDelegationFixture({ main: () => ({ text: 'still mine' }) });
    demo = await startDemoServer({ port: 0, model: fixture.model(), workspace: fixture.workspace.dir, homeDir: fixture.home });
    context = await (await browser()).newContext();
    context.setDefaultTimeout(10_000);
    const own = await context.newPage();
    await openLoggedIn(own, demo.url, demo.token);

    other = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>another local app</title>'));
    await new Promise<void>((resolve) => other!.listen(0, '127.0.0.1', resolve));
    const neighbour = await context.newPage();
    await neighbour.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
    const name = `rxharness-token-${new URL(demo.url).port}`;
    await neighbour.evaluate(`document.cookie = ${JSON.stringify(`${name}=junk-junk-junk-junk; path=/api/runs`)}`);
    // the browser took it: the demo's routes under /api/runs now get two cookies of that name, the junk first
    expect((await context.cookies(new URL('/api/runs', demo.url).href)).filter((c) => c.name === name)).toHaveLength(2);

    await own.reload();
    await pressRun(own, 'hello');
    // done or failed, whichever comes: a refused run fails at once, with the page's own words
    await own.locator('body[data-state="done"], body[data-state="failed"]').waitFor();
    expect({ state: await own.locator('body').getAttribute('data-state'), status: await own.locator('#status').textContent() }).toMatchObject({ state: 'done' });
    expect(await own.locator('#answer-text').textContent()).toBe('still mine');
  });
});
