import { headOf } from '../text/whole-chars.js';

/**
 * The most characters of a server's words (an error's message, a cancel's reason) the client
 * keeps: about what `requestError` reads of an error answer (4 KiB). A hostile server may send
 * an `event: error` of many MiB (up to `maxMessageLength`), and every control character of an
 * error's message is marked (`<U+0001>`, eight characters for one): tens of MiB of it would
 * block the thread for minutes, or take more memory than a string may have.
 */
export const MAX_SERVER_TEXT = 4096;

/**
 * The most characters kept of a server's short words: an error's name, or the start of a text
 * that is not the JSON expected (a proxy's page), as `requestError` quotes it.
 */
export const MAX_SERVER_WORDS = 300;

/**
 * `text` as sent when it has at most `max` characters, else its start (no half character)
 * and how many were cut, so the cut shows.
 *
 * @example
 * ```ts
 * serverText('x'.repeat(5000), 4096); // 'xxx…x… [904 more characters]'
 * ```
 */
export function serverText(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = headOf(text, max);
  return `${head}… [${text.length - head.length} more characters]`;
}
