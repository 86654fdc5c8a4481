import { markInvisible, visibleLines } from '../text/visible-text.js';
import { errorMessage } from '../errors/error-message.js';
import { clipMiddle } from '../text/clip-middle.js';
import { isUsageError } from './cli-usage-error.js';

/**
 * The most characters of an error the CLI prints (on stderr, or as the run's `run failed:`
 * line). A model server writes much of it (its error body, an echo of a 5,000-character
 * `--model`), and 100 KB of it would bury the terminal: its start and its end are kept (a
 * template error says what is wrong at its end), with how much was cut between them.
 */
export const MAX_SHOWN_ERROR_CHARS = 2_000;

/**
 * The message of anything thrown, as the CLI prints it on stderr: every control or bidi
 * character marked (`<U+001B>`). An error quotes what it was given (a command, a flag's value,
 * a path, a host, a server's answer), and a terminal would obey an escape sequence in it:
 * retitle the window, clear the screen, hide the rest of the message. A usage error (see
 * `isUsageError`) is one line, so a line break in it came from what it quotes
 * (`--max-steps=$'3\nrxharness: ok'`) and is marked too (`<U+000A>`): it cannot print a line
 * of its own. Any other error (a server's answer of several lines) keeps its line breaks.
 * Past {@link MAX_SHOWN_ERROR_CHARS} its middle is cut (see {@link shownText}).
 *
 * @example
 * ```ts
 * shownError(new Error('unknown command "\u001b[2J"')); // 'unknown command "<U+001B>[2J"'
 * ```
 */
export function shownError(error: unknown): string {
  const message = errorMessage(error);
  return shownText(isUsageError(error) ? markInvisible(message) : visibleLines(message).join('\n'));
}

/**
 * `text` (an error's, as printed) at most {@link MAX_SHOWN_ERROR_CHARS} long: its start and its
 * end, and between them how many characters were cut.
 *
 * @example
 * ```ts
 * shownText('x'.repeat(100_000)); // 'xxx... [... 98040 characters cut ...] ...xxx'
 * ```
 */
export function shownText(text: string): string {
  return clipMiddle(text, MAX_SHOWN_ERROR_CHARS);
}
