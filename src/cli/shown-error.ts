import { visibleLines } from '../adapters/visible-text.js';
import { errorMessage } from '../errors/error-message.js';

/**
 * The message of anything thrown, as the CLI prints it on stderr: its line breaks kept, every
 * other control or bidi character marked (`<U+001B>`). An error quotes what it was given (a
 * command, a flag's value, a path, a host, a server's answer), and a terminal would obey an
 * escape sequence in it: retitle the window, clear the screen, hide the rest of the message.
 *
 * @example
 * ```ts
 * shownError(new Error('unknown command "\u001b[2J"')); // 'unknown command "<U+001B>[2J"'
 * ```
 */
export function shownError(error: unknown): string {
  return visibleLines(errorMessage(error)).join('\n');
}
