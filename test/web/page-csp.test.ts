import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createDemoModel } from '../../src/demo/demo-model.js';
import { startDemoServer, type DemoServer } from '../../src/web/demo-server.js';
import { cliSandbox, type CliSandbox } from '../cli/cli-sandbox.js';
import { systemProgram } from '../support/system-requirement.js';
import { CHROMIUM_INSTALL, findChromium, launchChromium } from './chromium.js';
import { openLoggedIn, pressRun } from './page-login.js';

const HAS_CHROMIUM = systemProgram('chromium', findChromium(), CHROMIUM_INSTALL);

let browser: Promise<Browser> | undefined;
let page: Page | undefined;
let demo: DemoServer | undefined;
let sandbox: CliSandbox | undefined;
afterAll(async () => {
  await (await browser?.catch(() => undefined))?.close();
});
afterEach(async () => {
  await page?.context().close();
  await demo?.close();
  await sandbox?.cleanup();
  page = demo = sandbox = undefined;
});

/** Records, in `window.violations`, what the page's CSP refused (`directive`). */
const RECORD_VIOLATIONS = `
  window.violations = [];
  document.addEventListener('securitypolicyviolation', (event) => window.violations.push(event.effectiveDirective));`;

/** The Run button's background colour: page.css makes it blue. */
const RUN_BUTTON_COLOUR = "getComputedStyle(document.getElementById('start')).backgroundColor";

describe.skipIf(!HAS_CHROMIUM)("the page's Content-Security-Policy (headless Chromium)", () => {
  it('runs the page\'s own script and style, and no other inline code: an injected script does not run', async () => {
    sandbox = await cliSandbox();
    demo = await startDemoServer({ port: 0, model: createDemoModel({ chunkDelayMs: 0 }), workspace: sandbox.workspace.dir, homeDir: sandbox.home });
    browser ??= launchChromium();
    page = await (await (await browser).newContext()).newPage();
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
