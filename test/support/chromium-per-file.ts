/**
 * One headless Chromium for the browser tests of a file: whether it can run, and the browser
 * itself, launched on first use and closed after the file's last test. It replaces the
 * `const HAS_CHROMIUM = …; let browser; afterAll(close it); browser ??= launchChromium()` each
 * page test wrote out.
 *
 * @module
 */
import type { Browser } from 'playwright-core';
import { afterAll } from 'vitest';
import { CHROMIUM_INSTALL, findChromium, launchChromium } from '../web/chromium.js';
import { systemProgram } from './system-requirement.js';

/** The npm package's or the system's Chromium, or a visible skip (a failure under RXHARNESS_REQUIRE_SYSTEM=1, as in CI). */
export const HAS_CHROMIUM = systemProgram('chromium', findChromium(), CHROMIUM_INSTALL);

/**
 * Registers, in the calling file, the `afterAll` that closes the file's browser (if a test
 * launched it; a launch that failed is not closed), and returns the getter that launches it
 * on first call and answers the same browser after. Call once at the top of a test file.
 *
 * @example
 * ```ts
 * const browser = chromiumPerFile();
 * describe.skipIf(!HAS_CHROMIUM)('the page', () => {
 *   it('...', async () => {
 *     const page = await (await (await browser()).newContext()).newPage();
 *   });
 * });
 * ```
 */
export function chromiumPerFile(): () => Promise<Browser> {
  let browser: Promise<Browser> | undefined;
  afterAll(async () => {
    await (await browser?.catch(() => undefined))?.close();
  });
  return () => (browser ??= launchChromium());
}
