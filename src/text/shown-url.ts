/**
 * A URL as a message may show it: where it points, never a secret it carries.
 *
 * @module
 */

/** What is shown of a url whose user part cannot be told from its path, query or fragment. */
const UNREADABLE_URL = '(a url that cannot be read)';

/**
 * `url` without its credentials (`user:pass@`), query and fragment: its scheme, host and
 * path. A message naming an address (a model server's, an MCP server's) reaches stderr, a
 * run's events, the runs API, SSE and stored event logs, while a key is often put in the
 * user part or the query (`?key=...`). When unsure where the user part ends, less is shown,
 * never more: see `shownText` for a url no parser reads as one with a host.
 *
 * @example
 * ```ts
 * shownUrl('http://u:secret@10.0.0.5:8080/v1?key=abc'); // 'http://10.0.0.5:8080/v1'
 * shownUrl('admin:secret@10.0.0.5/v1'); // '10.0.0.5/v1' (no scheme: "admin:" is no scheme)
 * shownUrl('http://u:se#cret@host/v1'); // '(a url that cannot be read)'
 * ```
 */
export function shownUrl(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  // An empty host: an opaque url (`admin:pass@host` reads as the scheme `admin:`) or one
  // without authority, whose "path" may be anything. An `@` past the authority: the user
  // part held a `/`, `?` or `#`, and the parser took its start for the host (`http://u#pw@h`).
  if (parsed && parsed.host !== '' && !/@/.test(parsed.pathname + parsed.search + parsed.hash)) {
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  }
  return shownText(url);
}

/**
 * A url read as text: the scheme (`x://`), then what follows the last `@` (a user part,
 * even one holding `@`, ends there), up to the first `?` or `#`. When a `/`, `?` or `#` comes
 * before that `@`, it may be a character of a password as well as the start of a path or a
 * query (`http://host/@scope/pkg`, whose "host" would be `scope`; `?mail=a@b&key=...`, whose
 * end would be shown): nothing of it is shown.
 */
function shownText(url: string): string {
  const scheme = /^(?:[a-z][a-z0-9+.-]*:)?\/\//i.exec(url)?.[0] ?? '';
  const rest = url.slice(scheme.length);
  const at = rest.lastIndexOf('@');
  if (at !== -1 && /[/?#]/.test(rest.slice(0, at))) return UNREADABLE_URL;
  return scheme + rest.slice(at + 1).replace(/[?#][\s\S]*$/, '');
}
