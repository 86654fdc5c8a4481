/**
 * llama-server parses the model's output with its template's format (`peg-native`), also for
 * a plain or cut reply; now and then (about one reply in 100 to 300 here) the random model
 * ends on text the parser cannot place (seen: a reply cut right after `="$`), and the server
 * answers with an error inside the 200 stream, after streaming the text before it:
 * "The model produced output that does not match the expected peg-native format". rxharness
 * reports that correctly (an abnormal `RunEnd` quoting it, never retried: see cut-reply.ts),
 * but a check that needs a normal reply would then fail by chance. Such a check runs again.
 *
 * @module
 */
import type { RecordingProxy } from './recording-proxy.js';

/** The server's message when its output parser fails. */
export const PARSER_ERROR = /does not match the expected .* format/;

/**
 * Runs `check`, which hands the proxies it uses to `watch`; when it fails while one of them
 * recorded the parser error during this try (exchanges from earlier tries or checks do not
 * count; each watched exchange is let end first), runs it again, `tries` times at most. Any other failure, or the last one, is thrown,
 * saying what the earlier tries hit.
 *
 * @example
 * ```ts
 * it('...', () => retryParserErrors(async (watch) => { const { proxy } = rig(); watch(proxy); ... }));
 * ```
 */
export async function retryParserErrors(check: (watch: (...proxies: RecordingProxy[]) => void) => Promise<void>, tries = 3): Promise<void> {
  const earlier: string[] = [];
  for (let attempt = 1; ; attempt++) {
    // Each proxy with the number of exchanges it had recorded when this try began to watch it.
    const watched: Array<{ proxy: RecordingProxy; from: number }> = [];
    try {
      await check((...proxies) => watched.push(...proxies.map((proxy) => ({ proxy, from: proxy.exchanges.length }))));
      return;
    } catch (error) {
      // The client may end its run on the error chunk before the proxy has read the end of
      // that response and recorded the error: let every watched exchange end first.
      await Promise.all(watched.map(({ proxy }) => proxy.settled().catch(() => undefined)));
      const hit = watched
        .flatMap(({ proxy, from }) => proxy.exchanges.slice(from))
        .filter((c) => c.path.endsWith('/chat/completions') && PARSER_ERROR.test(c.error ?? ''));
      if (hit.length === 0 || attempt >= tries) {
        if (earlier.length > 0 && error instanceof Error) error.message += `\n(earlier tries ended on the server's parser error after: ${earlier.join('; ')})`;
        throw error;
      }
      earlier.push(hit.map((c) => JSON.stringify(c.text)).join(', '));
    }
  }
}
