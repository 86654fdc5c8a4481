import { BAD_REDIS_DATA, shownKey } from './bad-data-warning.js';

/** How often at most a channel's bad messages are said: a flood is one warning a minute. */
export const BAD_MESSAGE_WINDOW_MS = 60_000;

/**
 * Says the messages of one channel that no engine or worker publishes (anyone with access to
 * the Redis can publish anything), as process warnings of code `RXHARNESS_BAD_REDIS_DATA`:
 * the first at once, then at most one per `windowMs`, each counting those skipped without a
 * word since the one before; so ten thousand forged messages are one warning, and a later
 * attack, a week on, is still heard of. A message is named by its first 200 characters,
 * its control and invisible characters marked (`shownKey`): it goes to a terminal.
 *
 * @example
 * ```ts
 * const bad = new BadMessageWarnings('rxh:results-events', 'no waiting result changed');
 * bad.report('not JSON', 'garbage'); // a warning
 * bad.report('not JSON', 'garbage'); // counted, said with the next warning
 * ```
 *
 * @internal
 */
export class BadMessageWarnings {
  #saidAt: number | undefined;
  #unsaid = 0;

  /**
   * @param channel - The channel, as the warning names it.
   * @param consequence - What skipping a message means (`no waiting result changed`).
   * @param windowMs - How long after a warning further bad messages are only counted.
   */
  constructor(
    private readonly channel: string,
    private readonly consequence: string,
    private readonly windowMs = BAD_MESSAGE_WINDOW_MS,
  ) {}

  /** Notes the message `text`, skipped for `problem`: a warning, unless one was said within the window. */
  report(problem: string, text: string): void {
    const now = Date.now();
    if (this.#saidAt !== undefined && now - this.#saidAt < this.windowMs) {
      this.#unsaid++;
      return;
    }
    const more = this.#unsaid > 0 ? ` ${this.#unsaid} more bad messages were skipped on it since the last warning.` : '';
    this.#saidAt = now;
    this.#unsaid = 0;
    const seconds = Math.round(this.windowMs / 1000);
    process.emitWarning(
      `Skipped a message on ${shownKey(this.channel)} that no engine or worker publishes (${shownKey(problem)}): ${shownKey(text)}. ${this.consequence}.${more} Bad messages on this channel are said at most once every ${seconds} s: see who can publish on the Redis, or give the backend a prefix of its own.`,
      { code: BAD_REDIS_DATA },
    );
  }
}

/** The warnings of each channel and reader in this process: several backends on one prefix say a message once. */
const byChannel = new Map<string, BadMessageWarnings>();

/**
 * The {@link BadMessageWarnings} of `channel` for the reader whose skipping means
 * `consequence`, shared by every backend of the process (as `warnBadData` is once per key
 * for the process): a flood is one warning a minute however many backends hear it. Bounded:
 * past 1000 channels the oldest is forgotten.
 *
 * @internal
 */
export function badMessagesOn(channel: string, consequence: string): BadMessageWarnings {
  const key = `${channel}\n${consequence}`;
  let found = byChannel.get(key);
  if (!found) {
    if (byChannel.size >= 1000) byChannel.delete(byChannel.keys().next().value!);
    byChannel.set(key, (found = new BadMessageWarnings(channel, consequence)));
  }
  return found;
}
