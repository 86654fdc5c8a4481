import { readFile } from 'node:fs/promises';
import { pageCsp } from './serve-headers.js';

/**
 * The built page's parts. The build writes them to `dist/web/page/` (the HTML and CSS
 * copied, the script bundled from `page/app.ts` and the client entry by
 * scripts/build-page.mjs). `../../dist/web/page/` names that folder from this module in
 * `dist/web/` as from its source in `src/web/` (both two levels under the package root), so
 * tests running the sources serve the built page too.
 */
const PAGE_DIR = new URL('../../dist/web/page/', import.meta.url);

/** The built page, ready to serve. */
export interface DemoPage {
  /** The HTML, with its style and script inline. */
  readonly html: string;
  /** Its `Content-Security-Policy`, which lets run exactly that script and style ({@link pageCsp}). */
  readonly csp: string;
}

/**
 * The demo page as one self-contained HTML document: `index.html` with `page.css` and the
 * bundled `page.js` inlined, so the browser loads nothing else (no external URL), and the CSP
 * naming them by hash, computed once here. Fails with a clear error when the page has not
 * been built (`npm run build`).
 *
 * @example
 * ```ts
 * const page = await loadDemoPage();
 * res.writeHead(200, { 'content-security-policy': page.csp });
 * res.end(page.html);
 * ```
 */
export async function loadDemoPage(): Promise<DemoPage> {
  let parts: string[];
  try {
    parts = await Promise.all(['index.html', 'page.css', 'page.js'].map((name) => readFile(new URL(name, PAGE_DIR), 'utf8')));
  } catch (error) {
    throw new Error(`the demo page is not built (${(error as Error).message}): run "npm run build" first`, { cause: error });
  }
  // The browser reads a CR or CRLF as LF before it hashes an inline script or style: the same text here, so the hashes match.
  const [html, css, js] = parts.map((part) => part.replace(/\r\n?/g, '\n')) as [string, string, string];
  // `</script` inside the code would end the inline script early: escaped, it means the same to JavaScript
  const script = `\n${js.replaceAll('</script', '<\\/script')}`;
  const style = `\n${css}`;
  // function replacers: `$` in the inlined code must stay literal
  return {
    html: html.replace('<style></style>', () => `<style>${style}</style>`).replace('<script></script>', () => `<script>${script}</script>`),
    // the hashes of exactly the text between the tags, as the browser hashes it
    csp: pageCsp(script, style),
  };
}
