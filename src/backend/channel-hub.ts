import type { Redis } from 'ioredis';
import { badMessagesOn, type BadMessageReporter } from './channel-warnings.js';
import { errorMessage } from '../errors/error-message.js';

type Handler = (message: string) => void;

/** What a listen may ask of the hub besides its messages. */
export interface ListenOptions {
  /**
   * Called each time Redis confirmed the channel subscribed again after the connection
   * dropped: what was published meanwhile was never heard, so a listener mirroring what
   * Redis holds reads it again. Not called at the first subscribe. One that throws stops no other.
   */
  readonly onResubscribed?: () => void;
}

/** One listen on a channel: a handler and its hooks (a handler listening twice is two). */
interface Listener {
  readonly handler: Handler;
  readonly onResubscribed?: () => void;
}

/**
 * One subscriber connection shared by everything of a backend that listens: each channel is
 * subscribed while at least one handler wants it, and its messages go to every handler.
 * (A connection in subscriber mode can do nothing else, so it is kept apart from the one
 * that sends commands.)
 * A message a handler throws on (not JSON, not what the channel carries) is skipped and said
 * (`badMessagesOn`: at most once a minute per channel; held until the hub closes), never
 * thrown on.
 */
export class ChannelHub {
  readonly #handlers = new Map<string, Set<Listener>>();
  /** The warnings of each channel a handler threw on, released at close. */
  readonly #bad = new Map<string, BadMessageReporter>();
  /**
   * Each channel's `SUBSCRIBE`, pending or confirmed, while a handler wants the channel and the
   * connection it went on is up: forgotten when the connection closes (a listen then must not
   * take the old confirmation for a subscription Redis no longer has).
   */
  readonly #subscribed = new Map<string, Promise<void>>();

  /**
   * @param sub - the subscriber connection, made with `autoResubscribe: false`: ioredis's own
   * `SUBSCRIBE` after a reconnect has no handler, so a close while it is on its way ("Connection
   * is closed.") was an unhandled rejection. The hub subscribes its channels again itself.
   */
  constructor(private readonly sub: Redis) {
    sub.on('close', () => this.#subscribed.clear());
    sub.on('ready', () => this.#resubscribe());
    sub.on('message', (channel: string, message: string) => {
      for (const { handler } of [...(this.#handlers.get(channel) ?? [])]) {
        try {
          handler(message);
        } catch (e) {
          // A message that is not what the channel carries (a bug elsewhere, or anyone with
          // access to the Redis) is dropped: thrown here it would crash the process.
          let bad = this.#bad.get(channel);
          if (!bad) this.#bad.set(channel, (bad = badMessagesOn(channel, 'It changed nothing here')));
          bad.report(errorMessage(e), message);
        }
      }
    });
  }

  /**
   * Listens on `channel`; resolves once Redis confirmed the subscription, with the stop.
   * Every listen waits for that confirmation, also one that comes while the channel's first
   * `SUBSCRIBE` is still on its way (resolved before, its caller could miss a message
   * published right after). Rejects when the subscribe fails, for every listen waiting on it,
   * each handler taken off again: left, it would make the next listen on the channel think
   * it subscribed. A listen after that failure subscribes anew. After the connection dropped,
   * a listen waits for Redis to have the channel again (`options.onResubscribed`: what to do then).
   */
  async listen(channel: string, handler: Handler, options: ListenOptions = {}): Promise<() => void> {
    let set = this.#handlers.get(channel);
    if (!set) this.#handlers.set(channel, (set = new Set()));
    const listener: Listener = { handler, ...options };
    set.add(listener);
    const stop = (): void => {
      const current = this.#handlers.get(channel);
      if (!current?.delete(listener) || current.size > 0) return;
      this.#handlers.delete(channel);
      this.#subscribed.delete(channel);
      // Quietly: a closing backend has cut the connection already.
      this.sub.unsubscribe(channel).catch(() => undefined);
    };
    try {
      await this.#subscribe(channel);
    } catch (e) {
      stop();
      throw e;
    }
    return stop;
  }

  /** The channel's subscription: the one under way or made, else a new one. */
  #subscribe(channel: string): Promise<void> {
    const known = this.#subscribed.get(channel);
    if (known) return known;
    const made: Promise<void> = this.sub.subscribe(channel).then(
      () => undefined,
      (e: unknown) => {
        // Forgotten at once (before its waiters take their handlers off): a listen coming
        // after the failure tries again rather than get the failure of a subscribe not its own.
        if (this.#subscribed.get(channel) === made) this.#subscribed.delete(channel);
        throw e;
      },
    );
    this.#subscribed.set(channel, made);
    return made;
  }

  /**
   * Subscribes the channels again once the connection is back (none are wanted at the first
   * connect), one `SUBSCRIBE` every listen made meanwhile waits on too; once Redis confirms it,
   * each listener's `onResubscribed` is called. Failing, the next reconnect tries again.
   */
  #resubscribe(): void {
    const channels = [...this.#handlers.keys()];
    if (channels.length === 0) return;
    const made = this.sub.subscribe(...channels).then(() => undefined);
    for (const channel of channels) {
      const mine = made.catch((e: unknown) => {
        if (this.#subscribed.get(channel) === mine) this.#subscribed.delete(channel);
        throw e;
      });
      mine.catch(() => undefined); // said to the listens waiting on it, if any
      this.#subscribed.set(channel, mine);
    }
    made.then(
      () => {
        for (const channel of channels) for (const listener of [...(this.#handlers.get(channel) ?? [])]) this.#tellResubscribed(listener);
      },
      () => undefined, // closed meanwhile, or dropped again: the next `ready` tries again
    );
  }

  /** Calls a listener's `onResubscribed`: one that throws is its own failure, not the hub's. */
  #tellResubscribed(listener: Listener): void {
    try {
      listener.onResubscribed?.();
    } catch {
      // Its reload failed at once; the messages still come.
    }
  }

  /** Closes the connection. */
  close(): void {
    this.#handlers.clear();
    this.#subscribed.clear();
    for (const bad of this.#bad.values()) bad.release();
    this.#bad.clear();
    this.sub.disconnect();
  }
}
