/**
 * A demo server's page in the npm-shipped headless Chromium, on the fake OpenAI server: what
 * the page tests (approval card, conversations) each set up and tore down alike.
 *
 * @module
 */
import type { Page } from 'playwright-core';
import { afterEach } from 'vitest';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import { startDemoServer, type DemoServer } from '../../src/web/demo-server.js';
import { openLoggedIn } from '../web/page-login.js';
import { chromiumPerFile } from './chromium-per-file.js';
import { startDelegationFixture, type AgentRoute, type DelegationFixture } from './delegation-fixture.js';

/** One opened page, its demo server, and the fixture whose fake server is its model. */
export interface DemoPage {
  readonly page: Page;
  readonly demo: DemoServer;
  readonly fixture: DelegationFixture;
}

/** Opens demo pages for the tests of the calling file. */
export interface DemoPages {
  /**
   * A page logged in to a new demo server whose model is a fake server answering `routes`
   * (with `engine` options); closed after the test.
   */
  open(routes: Readonly<Record<string, AgentRoute>>, engine?: Partial<HarnessEngineOptions>): Promise<DemoPage>;
}

/**
 * Registers, in the calling file, one browser (launched for the first page, closed after the
 * last test) and the closing of each test's page, demo server and fixture whatever its
 * outcome. Waits on a page fail after `waitMs` (naming what they waited for), before the
 * test times out.
 */
export function useDemoPages(waitMs: number): DemoPages {
  const browser = chromiumPerFile();
  let opened: Partial<DemoPage> = {};
  afterEach(async () => {
    const { page, demo, fixture } = opened;
    opened = {};
    await page?.context().close();
    await demo?.close();
    await fixture?.close();
  });
  return {
    open: async (routes, engine = {}) => {
      const fixture = await startDelegationFixture(routes);
      opened = { fixture };
      const demo = await startDemoServer({ port: 0, model: fixture.model(), workspace: fixture.workspace.dir, homeDir: fixture.home, engine });
      opened = { fixture, demo };
      const page = await (await (await browser()).newContext()).newPage();
      opened = { fixture, demo, page };
      page.setDefaultTimeout(waitMs);
      await openLoggedIn(page, new URL(demo.url).origin, demo.token);
      return { page, demo, fixture };
    },
  };
}
