/**
 * Counting the DOM changes the page makes under an element, for the tests that the clock's
 * redraws leave alone what did not change (with thousands of tasks, rewriting each row or
 * lane each 250 ms kept the page busy).
 *
 * @module
 */
import type { Page } from 'playwright-core';

/**
 * A page script that counts, in `window.changes[name]`, every DOM change (attributes, text,
 * children) under the first element `selector` names, from now on. Run it with `page.evaluate`.
 */
export function watchChanges(name: string, selector: string): string {
  return `(() => {
    window.changes ??= {};
    window.changes[${JSON.stringify(name)}] = 0;
    new MutationObserver((records) => { window.changes[${JSON.stringify(name)}] += records.length; })
      .observe(document.querySelector(${JSON.stringify(selector)}), { subtree: true, attributes: true, characterData: true, childList: true });
  })()`;
}

/** How many changes {@link watchChanges} counted as `name` so far. */
export async function changesCounted(page: Page, name: string): Promise<number> {
  return ((await page.evaluate('window.changes')) as Record<string, number>)[name]!;
}
