/**
 * How the browser tests reach a demo server's page as its user does: open the address it
 * printed (`?token=...`: the server keeps the token in a cookie and redirects), then the page
 * wanted; a run starts only with a click on Run.
 *
 * @module
 */
import type { Page } from 'playwright-core';
import { SETTLE_MS } from '../../src/web/page/user-input-gate.js';

/** Logs `page`'s browser context in to the server at `origin` with `token`, then opens `path` there. */
export async function openLoggedIn(page: Page, origin: string, token: string, path = '/'): Promise<void> {
  await page.goto(new URL(`/?token=${token}`, origin).href);
  if (path !== '/') await page.goto(new URL(path, origin).href);
}

/**
 * Types `prompt` (when given: keys, as a user types) and presses Run, as a user does. Without
 * one, the pointer goes to the prompt box first, then to Run: the page takes no click before
 * the user's own input on it (a key, or the pointer moving; see `user-input-gate.ts`).
 */
export async function pressRun(page: Page, prompt?: string): Promise<void> {
  await settled(page);
  const box = page.locator('#prompt');
  if (prompt !== undefined) {
    await box.fill('');
    await box.pressSequentially(prompt);
  } else {
    await box.hover();
  }
  await page.locator('#start').click();
}

/**
 * Waits until keys and moves on `page` count (`SETTLE_MS` after it appeared): the gate starts
 * its wait as the page's script runs, before the load event ends.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction((ms) => {
    // the page's own window (the test's types know no DOM; its CSP allows no string to evaluate)
    const { performance } = globalThis as unknown as { performance: { now(): number; getEntriesByType(type: string): Array<{ loadEventEnd?: number }> } };
    const loaded = performance.getEntriesByType('navigation')[0]?.loadEventEnd ?? 0;
    return loaded > 0 && performance.now() >= loaded + ms;
  }, SETTLE_MS, { polling: 50 }); // not each frame: a page in the background draws none
}
