import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { chromiumPerFile, HAS_CHROMIUM } from '../support/chromium-per-file.js';
import { useDemoServers } from '../support/demo-servers.js';
import { openLoggedIn, pressRun } from './page-login.js';

// vitest runs `afterEach` hooks last-registered first: the page closes before its demo server.
const servers = useDemoServers();
const browser = chromiumPerFile();
let page: Page | undefined;
afterEach(async () => {
  await page?.context().close();
  page = undefined;
});

/** Records, in `window.violations`, what the page's CSP refused (`directive`). */
const RECORD_VIOLATIONS = `
  window.violations = [];
  document.addEventListener('securitypolicyviolation', (event) => window.violations.push(event.effectiveDirective));`;

/** The Run button's background colour: page.css makes it blue. */
const RUN_BUTTON_COLOUR = "getComputedStyle(document.getElementById('start')).backgroundColor";

describe.skipIf(!HAS_CHROMIUM)("the page's Content-Security-Policy (headless Chromium)", () => {
  it('runs the page\'s own script and style, and no other inline code: an injected script does not run', async () => {
    const { demo } = await servers.start();
    page = await (await (await browser()).newContext()).newPage();
    page.setDefaultTimeout(10_000);
    await page.addInitScript({ content: RECORD_VIOLATIONS });
    await openLoggedIn(page, demo.url, demo.token);

    // the page's script runs (a run goes to its end) and its style applies (the Run button is blue)
    await pressRun(page);
    await page.locator('body[data-state="done"]').waitFor();
    expect(await page.evaluate(RUN_BUTTON_COLOUR)).toBe('rgb(45, 108, 223)');
    expect(await page.evaluate('window.violations')).toEqual([]);

    // markup injected into the page, should a bug ever let some in: its script and style are refused
    await page.evaluate(`
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
      const style = document.createElement('style');
      style.textContent = '#start { background: rgb(255, 0, 0) !important; }';
      document.head.append(style);`);
    await expect.poll(() => page!.evaluate('window.violations')).toEqual(['script-src-elem', 'style-src-elem']);
    expect(await page.evaluate('window.injected')).toBeUndefined();
    expect(await page.evaluate(RUN_BUTTON_COLOUR)).toBe('rgb(45, 108, 223)');
  });
});
