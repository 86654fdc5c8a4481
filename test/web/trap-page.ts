/**
 * What the browser tests of `serve` against hostile pages share: a demo server on a scripted
 * model, a Chromium context, the user's own page logged in, and a page of another site
 * (`localhost`, while the demo is `127.0.0.1`: another origin and another site). All of it is
 * closed after each test of the file that calls {@link trapPages}.
 *
 * @module
 */
import http, { type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterEach } from 'vitest';
import { startDemoServer, type DemoServer } from '../../src/web/demo-server.js';
import { chromiumPerFile } from '../support/chromium-per-file.js';
import { startDelegationFixture, type AgentRoute, type DelegationFixture } from '../support/delegation-fixture.js';
import { openLoggedIn } from './page-login.js';

/** How {@link TrapPages.start} sets the server and the browser up. */
export interface TrapOptions {
  /** How the main agent answers; by default "I ran the prompt.". */
  readonly main?: AgentRoute;
  /** Where the server listens, with a token of the test's own (a LAN address over plain http); loopback by default. */
  readonly host?: string;
  /** The browser context's options, e.g. `hasTouch`. */
  readonly browser?: BrowserContextOptions;
}

/** The servers and browser of one test; each getter throws before {@link TrapPages.start}. */
export interface TrapPages {
  readonly demo: DemoServer;
  readonly fixture: DelegationFixture;
  readonly context: BrowserContext;
  /** The file's browser (for a context of a stranger's). */
  browser(): Promise<Browser>;
  /** Starts the demo server and a fresh browser context. */
  start(options?: TrapOptions): Promise<BrowserContext>;
  /** A new page of the context, logged in to the demo server at `/` (the user's own tab). */
  ownPage(): Promise<Page>;
  /** Serves `site` (a page's HTML, or a handler) on 127.0.0.1; answers its address by the name `localhost`. */
  anotherSite(site: string | RequestListener): Promise<URL>;
  /**
   * Another site's page, open in a new tab, whose `#a` sends the tab to `target` on `event`;
   * `body` is its HTML. (The attack uses mousedown; on mouseup or click the test's own release
   * is dispatched before the tab leaves: one sent to a page being torn down can stall the
   * browser's input ack.)
   */
  trap(target: string, body: string, event?: 'mouseup' | 'click'): Promise<Page>;
}

/** Registers the `afterEach` that closes what a test started; call once at the top of a test file. */
export function trapPages(): TrapPages {
  const browser = chromiumPerFile();
  let context: BrowserContext | undefined;
  let demo: DemoServer | undefined;
  let fixture: DelegationFixture | undefined;
  let attacker: Server | undefined;
  afterEach(async () => {
    await context?.close();
    await demo?.close();
    await fixture?.close();
    await new Promise((resolve) => (attacker ? attacker.close(resolve) : resolve(undefined)));
    context = demo = fixture = attacker = undefined;
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('trapPages: call start() first');
    return value;
  };
  const pages: TrapPages = {
    get demo() { return started(demo); },
    get fixture() { return started(fixture); },
    get context() { return started(context); },
    browser,
    async start({ main = () => ({ text: 'I ran the prompt.' }), host, browser: contextOptions } = {}) {
      fixture = await startDelegationFixture({ main });
      demo = await startDemoServer({ port: 0, host, token: host ? 'a-token-of-my-own-choosing-1234' : undefined, model: fixture.model(), workspace: fixture.workspace.dir, homeDir: fixture.home });
      context = await (await browser()).newContext(contextOptions);
      context.setDefaultTimeout(10_000);
      return context;
    },
    async ownPage() {
      const own = await pages.context.newPage();
      await openLoggedIn(own, pages.demo.url, pages.demo.token);
      return own;
    },
    async anotherSite(site) {
      attacker = http.createServer(typeof site === 'string' ? (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(site) : site);
      await new Promise<void>((resolve) => attacker!.listen(0, '127.0.0.1', resolve));
      return new URL(`http://localhost:${(attacker.address() as AddressInfo).port}/`);
    },
    async trap(target, body, event = 'mouseup') {
      const site = await pages.anotherSite(`<!doctype html><title>captcha</title>${body}
        <script>document.getElementById('a').addEventListener(${JSON.stringify(event)}, () => { location.href = ${JSON.stringify(target)}; }, { once: true });</script>`);
      const evil = await pages.context.newPage();
      await evil.goto(site.href);
      return evil;
    },
  };
  return pages;
}

/** Where `selector` is centred on `page`. */
export async function centre(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = (await page.locator(selector).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Waits until `ms` have passed on `page`'s own clock (the one its events' `timeStamp` are on). */
export async function pageTimePasses(page: Page, ms: number): Promise<void> {
  const now = () => (globalThis as unknown as { performance: { now(): number } }).performance.now();
  const from = await page.evaluate(now);
  await page.waitForFunction((end) => (globalThis as unknown as { performance: { now(): number } }).performance.now() >= end, from + ms, { polling: 50 });
}

/** Waits for the page's word that it refused a click that came before any input of the user's. */
export async function refusedClick(page: Page, selector = '#status'): Promise<void> {
  await page.locator(selector, { hasText: 'This click was not taken: it came before any move or key of yours' }).waitFor();
}
