/**
 * Double-clickjacking, second round (review 56e): "click 1, then click 2" on another site,
 * its button 2 where Run will be. Click 1 sends the tab to the serve page; the hand's way to
 * button 2, over the new page, is no input of the user's for it (keys and moves count only
 * `SETTLE_MS` after the page appeared), so click 2 starts nothing. Served over plain HTTP on
 * a LAN address, Chromium sends no `Sec-Fetch-Site` (the origin is not trustworthy): a
 * `?prompt=` without it is dropped too.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM } from '../support/chromium-per-file.js';
import { centre, trapPages } from './trap-page.js';

const serve = trapPages();

/** A demo server (on `host` with a token when given: a LAN address over plain http) and the user's own page on it, logged in. */
async function setUp(host?: string): Promise<Page> {
  await serve.start({ host });
  return serve.ownPage();
}

/** Click 1 at `first` (the tab goes to the serve page), the hand's way to `run`, click 2 there; then the page's answer. */
async function clickThenClick(evil: Page, first: { x: number; y: number }, run: { x: number; y: number }): Promise<void> {
  await evil.mouse.move(first.x, first.y);
  await evil.mouse.down();
  await evil.mouse.up();
  await evil.waitForURL((url) => url.origin === new URL(serve.demo.url).origin);
  await evil.locator('#start').waitFor();
  await evil.mouse.move(run.x, run.y, { steps: 6 }); // the user reaches for the "2" button
  await evil.mouse.down();
  await evil.mouse.up();
  await evil.locator('#status', { hasText: 'This click was not taken' }).waitFor();
}

describe.skipIf(!HAS_CHROMIUM)('serve against "click 1, then click 2" (headless Chromium)', { timeout: 40_000 }, () => {
  it('the move between the two clicks does not arm Run: the second click starts no run, and the page says a key arms it', async () => {
    const own = await setUp();
    const run = await centre(own, '#start');
    const first = { x: run.x - 120, y: run.y };
    const evil = await serve.trap(new URL('/', serve.demo.url).href,
      `<button id="a" style="position:absolute;left:${first.x - 20}px;top:${first.y - 10}px">1: click me</button>
       <button id="b" style="position:absolute;left:${run.x - 20}px;top:${run.y - 10}px">2: then me</button>`);
    await clickThenClick(evil, first, run);
    expect(await evil.locator('#status').textContent()).toContain('press a key (Tab will do)');
    expect(await evil.locator('body').getAttribute('data-state')).toBe('idle');
    expect(serve.demo.engine.runs.list()).toEqual([]);
  });

  it("on a LAN address over http (no Sec-Fetch-Site), another site's ?prompt= is dropped", async () => {
    await setUp('192.0.2.2');
    const target = new URL('/?prompt=' + encodeURIComponent('EVIL PROMPT'), serve.demo.url).href;
    const evil = await serve.trap(target, `<button id="a" style="position:absolute;left:0;top:0;width:100vw;height:100vh">click</button>`);
    await evil.mouse.click(50, 50);
    await evil.waitForURL((url) => url.origin === new URL(serve.demo.url).origin);
    await evil.locator('#start').waitFor();
    expect(new URL(evil.url()).searchParams.has('prompt')).toBe(false);
    expect(await evil.locator('#prompt').inputValue()).toBe('Survey this project and report');
  });

  it("on a LAN address, click 1 then click 2 neither runs another site's prompt nor any", async () => {
    const own = await setUp('192.0.2.2');
    const run = await centre(own, '#start');
    const first = { x: run.x - 120, y: run.y };
    const evil = await serve.trap(new URL('/?prompt=' + encodeURIComponent('EVIL PROMPT'), serve.demo.url).href,
      `<button id="a" style="position:absolute;left:${first.x - 20}px;top:${first.y - 10}px">1: click me</button>`);
    await clickThenClick(evil, first, run);
    expect(await evil.locator('#prompt').inputValue()).not.toBe('EVIL PROMPT');
    expect(serve.demo.engine.runs.list()).toEqual([]);
    expect(serve.fixture.server.requests).toHaveLength(0);
  });
});
