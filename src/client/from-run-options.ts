/**
 * What {@link fromRun} may be told, and what it assumes when it is not: the defaults of its
 * limits, each with its reason, and their check. A bad number is the caller's mistake, so it
 * is thrown at once, where the call is, rather than met in the middle of a stream.
 *
 * @module
 */
import { MAX_REPLY_CHARS } from '../model/reply-limit.js';
import type { RequestOptions } from './run-requests.js';

/** Options of {@link fromRun}. */
export interface FromRunOptions extends RequestOptions {
  /** Start after this seq (default 0: from the run's first event). */
  readonly after?: number;
  /** How many connections in a row may fail (without one new event) before giving up with a `RunConnectionError`; default 6. */
  readonly maxRetries?: number;
  /** The wait before the first reconnection, in milliseconds, doubled after each further failure (at most 10 s); default 250. */
  readonly retryDelayMs?: number;
  /**
   * How long a connection may bring nothing (no whole event, no keep-alive comment: the bytes
   * of a message that never ends do not count) before it is taken for dead, dropped and made
   * again (counting as a failure, like any drop), in milliseconds; 0: wait forever. Default
   * 45,000: three of the server's 15 s keep-alives.
   */
  readonly idleTimeoutMs?: number;
  /**
   * The most characters one message may hold before the stream is refused with a
   * `RunStreamError` (`MessageTooLarge`); default 56 Mi (58,720,256): the `RunEnd` of the
   * longest answer the engine takes from a model (8 Mi characters), however JSON escapes it.
   */
  readonly maxMessageLength?: number;
}

/** Three keep-alives of a `runsHandler` (one every 15 s by default): two may be late, not three. */
const DEFAULT_IDLE_TIMEOUT_MS = 45_000;
/** The most characters JSON writes for one character of a string: `\u001f` for a control character, or a lone surrogate. */
const JSON_CHARS_PER_CHAR = 6;
/**
 * The longest message a run may send: its `RunEnd` carries the whole answer, which may be
 * {@link MAX_REPLY_CHARS} characters (the engine's cap on one reply) and, in the worst case
 * (quotes, control characters), six times as long as JSON; as much again as the answer
 * leaves room for the rest of the event (its metrics, an error, the `TaskWrap`s around a
 * task's). Still a bound: a stream that never ends a message is refused past it.
 */
const DEFAULT_MAX_MESSAGE_LENGTH = MAX_REPLY_CHARS * (JSON_CHARS_PER_CHAR + 1);

/** The numbers of a {@link FromRunOptions}, checked, with the defaults filled in. @internal */
export interface FollowLimits {
  readonly after: number;
  readonly maxRetries: number;
  readonly retryDelayMs: number;
  readonly idleTimeoutMs: number;
  readonly maxMessageLength: number;
}

/**
 * The limits `options` sets, the defaults for those it leaves out; throws a `RangeError`
 * naming the first that is not a whole number in range (checked in the order listed).
 *
 * @internal
 */
export function followLimits(options: FromRunOptions): FollowLimits {
  return {
    after: count('after', options.after ?? 0),
    maxRetries: count('maxRetries', options.maxRetries ?? 6),
    retryDelayMs: count('retryDelayMs', options.retryDelayMs ?? 250),
    idleTimeoutMs: count('idleTimeoutMs', options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS),
    // a message of no characters cannot be an event: 0 would refuse every stream
    maxMessageLength: count('maxMessageLength', options.maxMessageLength ?? DEFAULT_MAX_MESSAGE_LENGTH, 1),
  };
}

function count(name: string, value: number, least = 0): number {
  if (!Number.isSafeInteger(value) || value < least) throw new RangeError(`fromRun: ${name} must be a whole number, at least ${least}, got ${String(value)}`);
  return value;
}
