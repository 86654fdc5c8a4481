/**
 * The page's address: it names the open conversation and run (`?session=<id>&run=<id>`), so a
 * reload or a second tab shows them again, and it may carry a prompt for the box.
 *
 * @module
 */
import { browser } from './dom.js';

/** What the page's address asks for (each as given: empty when it is there but empty). */
export interface PageAddress {
  /** Text for the prompt box. */
  readonly prompt: string | null;
  /** The conversation to open. */
  readonly session: string | null;
  /** The run to follow. */
  readonly run: string | null;
}

/** Reads what the page was opened on. */
export function readAddress(): PageAddress {
  const params = new URLSearchParams(browser.location.search);
  return { prompt: params.get('prompt'), session: params.get('session'), run: params.get('run') };
}

/** Puts the open conversation and run in the address (replacing, not adding history), so a reload shows them again. */
export function showAddress(session: string | undefined, run: string | undefined): void {
  const query = new URLSearchParams();
  if (session !== undefined) query.set('session', session);
  if (run !== undefined) query.set('run', run);
  browser.history.replaceState(null, '', `?${query.toString()}`);
}
