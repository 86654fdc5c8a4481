import { readFile } from 'node:fs/promises';

/** The page's parts; the build copies this folder next to the compiled module. */
const PAGE_DIR = new URL('./page/', import.meta.url);

/**
 * The demo page as one self-contained HTML document: `page/index.html` with `page/page.css`
 * and `page/page.js` inlined, so the browser loads nothing else (no framework, no build step,
 * no external URL). The parts live in their own files only to be readable and editable.
 *
 * @example
 * ```ts
 * const html = await loadDemoPage();
 * res.end(html);
 * ```
 */
export async function loadDemoPage(): Promise<string> {
  const [html, css, js] = await Promise.all(
    ['index.html', 'page.css', 'page.js'].map((name) => readFile(new URL(name, PAGE_DIR), 'utf8')),
  );
  // function replacers: `$` in the inlined code must stay literal
  return html!.replace('<style></style>', () => `<style>\n${css}</style>`).replace('<script></script>', () => `<script>\n${js}</script>`);
}
