import { BAD_REDIS_DATA, shownKey } from './bad-data-warning.js';

/** How often at most a channel's bad messages are said: a flood is one warning a minute. */
export const BAD_MESSAGE_WINDOW_MS = 60_000;

/**
 * Says the messages of one channel that no engine or worker publishes (anyone with access to
 * the Redis can publish anything), as process warnings of code `RXHARNESS_BAD_REDIS_DATA`:
 * the first at once, then at most one per `windowMs`: those skipped within a window are
 * counted, and the count is said when the window ends (an unref'd timer, running only while
 * some are counted) or at {@link BadMessageWarnings.close}, whichever is first. So ten
 * thousand forged messages are two warnings, a flood that stops is still counted, and a
 * later attack, a week on, is still heard of. A message is named by its first 200
 * characters, its control and invisible characters marked (`shownKey`): it goes to a terminal.
 *
 * @example
 * ```ts
 * const bad = new BadMessageWarnings('rxh:results-events', 'no waiting result changed');
 * bad.report('not JSON', 'garbage'); // a warning
 * bad.report('not JSON', 'garbage'); // counted, said when the minute ends
 * bad.close(); // or now
 * ```
 *
 * @internal
 */
export class BadMessageWarnings {
  #saidAt: number | undefined;
  #unsaid = 0;
  #timer: NodeJS.Timeout | undefined;
  /** Closed: no timer is started any more (a count waits for the next warning). */
  #closed = false;

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
      if (!this.#closed && !this.#timer) {
        this.#timer = setTimeout(() => this.#tally(), this.#saidAt + this.windowMs - now);
        this.#timer.unref(); // a count still to say never keeps a process alive
      }
      return;
    }
    const more = this.#unsaid > 0 ? ` ${this.#unsaid} more bad messages were skipped on it since the last warning.` : '';
    this.#said();
    process.emitWarning(`Skipped a message on ${shownKey(this.channel)} that no engine or worker publishes (${shownKey(problem)}): ${shownKey(text)}. ${this.consequence}.${more} ${this.#advice()}`, { code: BAD_REDIS_DATA });
  }

  /** Says the count not said yet, if any, and stops the timer: what a closing reader does. */
  close(): void {
    this.#closed = true;
    this.#tally();
  }

  /** Says how many were skipped since the last warning (the window ended, or the reader closes). */
  #tally(): void {
    const count = this.#unsaid;
    this.#said();
    if (count === 0) return;
    process.emitWarning(`${count} more bad messages were skipped on ${shownKey(this.channel)} since the last warning, messages no engine or worker publishes. ${this.consequence}. ${this.#advice()}`, { code: BAD_REDIS_DATA });
  }

  #said(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#saidAt = Date.now();
    this.#unsaid = 0;
  }

  #advice(): string {
    const seconds = Math.round(this.windowMs / 1000);
    return `Bad messages on this channel are said at most once every ${seconds} s: see who can publish on the Redis, or give the backend a prefix of its own.`;
  }
}

/** One reader's hold on the warnings of a channel (see {@link badMessagesOn}). @internal */
export interface BadMessageReporter {
  /** {@link BadMessageWarnings.report}; nothing once released. */
  report(problem: string, text: string): void;
  /** Lets go; the last holder's release closes the warnings (says their count, stops their timer). */
  release(): void;
}

/** The warnings of each channel and reader in this process, with how many readers hold them. */
const byChannel = new Map<string, { readonly warnings: BadMessageWarnings; holders: number }>();

/**
 * A hold on the {@link BadMessageWarnings} of `channel` for the reader whose skipping means
 * `consequence`, shared by every backend of the process (as `warnBadData` is once per key
 * for the process): a flood is one warning a minute however many backends hear it. Release
 * it when the reader stops: the last release closes them, so a closed backend leaves no
 * timer. Bounded: past 1000 channels the oldest is closed and forgotten.
 *
 * @internal
 */
export function badMessagesOn(channel: string, consequence: string): BadMessageReporter {
  const key = `${channel}\n${consequence}`;
  let entry = byChannel.get(key);
  if (!entry) {
    if (byChannel.size >= 1000) {
      const [oldest] = byChannel;
      oldest![1].warnings.close();
      byChannel.delete(oldest![0]);
    }
    byChannel.set(key, (entry = { warnings: new BadMessageWarnings(channel, consequence), holders: 0 }));
  }
  const held = entry;
  held.holders++;
  let released = false;
  return {
    report: (problem, text) => void (released || held.warnings.report(problem, text)),
    release: () => {
      if (released) return;
      released = true;
      if (--held.holders > 0) return;
      held.warnings.close();
      if (byChannel.get(key) === held) byChannel.delete(key);
    },
  };
}
