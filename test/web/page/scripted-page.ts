/**
 * The built page in headless Chromium on a scripted run server, for tests of what the page
 * draws: one browser per file, a server and a page per test, both closed after it.
 */
import type { Page } from 'playwright-core';
import { afterEach } from 'vitest';
import type { AgentEvent } from '../../../src/events/index.js';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { chromiumPerFile } from '../../support/chromium-per-file.js';
import { SCRIPTED_RUN, startScriptedRunServer, type ScriptedRunServer } from '../scripted-run-server.js';

/** What a test opens: the server's events and conversation, and where on the page. */
export interface ScriptedPageOptions {
  /** Sent after the events (see `startScriptedRunServer`). */
  readonly after?: string;
  /** The conversation `ses_1` holds. */
  readonly messages?: readonly ChatMessage[];
  /** The page's address after its origin; the scripted run by default. */
  readonly address?: string;
  /** The page's default timeout for its waits. */
  readonly timeoutMs?: number;
}

/**
 * Call at a file's top level: gives `open`, which starts a scripted run server with
 * `events` and opens the page on it in a fresh browser context.
 *
 * @example
 * ```ts
 * const open = scriptedPagePerTest();
 * const page = await open([start, runEnd(SCRIPTED_RUN, 'main', 'END')]);
 * ```
 */
export function scriptedPagePerTest(): (events: readonly AgentEvent[], options?: ScriptedPageOptions) => Promise<Page> {
  const browser = chromiumPerFile();
  let server: ScriptedRunServer | undefined;
  let page: Page | undefined;
  afterEach(async () => {
    await page?.context().close();
    await server?.close();
    page = server = undefined;
  });
  return async (events, { after = '', messages = [], address = `?run=${SCRIPTED_RUN}`, timeoutMs } = {}) => {
    server = await startScriptedRunServer(events, after, messages);
    page = await (await (await browser()).newContext()).newPage();
    if (timeoutMs !== undefined) page.setDefaultTimeout(timeoutMs);
    await page.goto(`${server.origin}/${address}`);
    return page;
  };
}
