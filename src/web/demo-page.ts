import { readFile } from 'node:fs/promises';

/**
 * The built page's parts. The build writes them to `dist/web/page/` (the HTML and CSS
 * copied, the script bundled from `page/app.ts` and the client entry by
 * scripts/build-page.mjs). `../../dist/web/page/` names that folder from this module in
 * `dist/web/` as from its source in `src/web/` (both two levels under the package root), so
 * tests running the sources serve the built page too.
 */
const PAGE_DIR = new URL('../../dist/web/page/', import.meta.url);

/**
 * The demo page as one self-contained HTML document: `index.html` with `page.css` and the
 * bundled `page.js` inlined, so the browser loads nothing else (no external URL). Fails
 * with a clear error when the page has not been built (`npm run build`).
 *
 * @example
 * ```ts
 * const html = await loadDemoPage();
 * res.end(html);
 * ```
 */
export async function loadDemoPage(): Promise<string> {
  let parts: string[];
  try {
    parts = await Promise.all(['index.html', 'page.css', 'page.js'].map((name) => readFile(new URL(name, PAGE_DIR), 'utf8')));
  } catch (error) {
    throw new Error(`the demo page is not built (${(error as Error).message}): run "npm run build" first`, { cause: error });
  }
  const [html, css, js] = parts as [string, string, string];
  // `</script` inside the code would end the inline script early: escaped, it means the same to JavaScript
  const script = js.replaceAll('</script', '<\\/script');
  // function replacers: `$` in the inlined code must stay literal
  return html.replace('<style></style>', () => `<style>\n${css}</style>`).replace('<script></script>', () => `<script>\n${script}</script>`);
}
