/**
 * The page's state and status line: the body's `data-state` (page.css and the tests read it),
 * the line that says what is happening, and which of Run and Stop can be pressed.
 *
 * @module
 */
import { RunRequestError } from './client-imports.js';
import { clipMiddle } from '../../text/clip-middle.js';
import { browser, byId, type DomButton } from './dom.js';

/** Where the page is: `running` while it follows a run; the others say how the last one went. */
export type PageState = 'idle' | 'running' | 'done' | 'failed' | 'cancelled';

/** The most characters of a status line (a server's error can be megabytes). */
export const MESSAGE_CHARS = 2000;

/** Shows the page's state and its status line: Stop acts only while a run goes, Run only while none does. */
export function setState(name: PageState, message: string): void {
  browser.document.body.dataset.state = name;
  byId('status').textContent = clipMiddle(message, MESSAGE_CHARS);
  byId<DomButton>('start').disabled = name === 'running';
  byId<DomButton>('stop').disabled = name !== 'running';
}

/** What went wrong, in words; a 401 says how to get the token this server needs, a 431 how to shed the cookies that choke it. */
export function describeFailure(error: unknown): string {
  if (RunRequestError.isInstance(error) && error.status === 401) {
    return 'this page has no token for its server: open the address "rxharness serve" printed (it ends in ?token=...)';
  }
  if (RunRequestError.isInstance(error) && error.status === 431) {
    // cookies of the host go to every port of it: another local server's page may have planted them
    const host = browser.location.hostname;
    return `the browser sends this server more cookies than it takes (431, headers too large), perhaps set by a page of another server on ${host}: clear the cookies of ${host} (this site, in the browser's settings), then open the address "rxharness serve" printed again (it ends in ?token=...)`;
  }
  return error instanceof Error ? error.message : String(error);
}
