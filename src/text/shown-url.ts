/**
 * A URL as a message may show it: where it points, never a secret it carries.
 *
 * @module
 */

/**
 * `url` without its credentials (`user:pass@`), query and fragment: its scheme, host and
 * path. A message naming an address (a model server's, an MCP server's) reaches stderr, a
 * run's events, the runs API, SSE and stored event logs, while a key is often put in the
 * user part or the query (`?key=...`). Text no URL parser reads is cut the same way: what
 * comes before the authority's last `@`, and from the first `?` or `#`, is left out.
 *
 * @example
 * ```ts
 * shownUrl('http://u:secret@10.0.0.5:8080/v1?key=abc'); // 'http://10.0.0.5:8080/v1'
 * ```
 */
export function shownUrl(url: string): string {
  if (URL.canParse(url)) {
    const { protocol, host, pathname } = new URL(url);
    return `${protocol}//${host}${pathname}`;
  }
  return url.replace(/[?#][\s\S]*$/, '').replace(/^((?:[a-z][a-z0-9+.-]*:)?\/\/)?[^/]*@/i, '$1');
}
