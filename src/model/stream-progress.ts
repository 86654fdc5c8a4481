import type { TokenUsage } from './chat-model.js';

/** What the reader has received so far; the idle watchdog compares `received` and `keepAlives`. */
export interface StreamProgress {
  /**
   * Pieces of the reply: events that brought text, reasoning or tool-call arguments, a new
   * tool call, a first `finish_reason` or `[DONE]`; for a whole JSON completion, each read of
   * its body.
   */
  received: number;
  /** SSE `data:` events only. */
  events: number;
  /**
   * What arrived without being a piece of the reply: comments (`: ping`), events that brought
   * nothing of it (`{}`, an empty delta, usage alone, the same `finish_reason` again), lines
   * without data (`event:`, `id:`, `retry:`, a bare line end) and lines that are no SSE. They
   * show the server alive (the idle timeout watches both counters), but a server that sends
   * only these forever never answers: the watchdog bounds them apart.
   */
  keepAlives: number;
  /** Which kinds of keep-alive came (bits of {@link KeepAlive}), for the message that gives the reply up. */
  keepAliveKinds: number;
  /**
   * Characters read, set once the reader stops (not while it reads: the hot path): of text,
   * reasoning and tool-call arguments for a stream, of the body for a whole JSON completion.
   */
  chars?: number;
  /** The last usage the server sent, set with `chars`: a stream cut after it was billed that. */
  usage?: TokenUsage;
  /**
   * Of `chars`, those read after the event that carried `usage` (set with it, by the stream's
   * reader only): what that usage does not count yet.
   */
  charsAfterUsage?: number;
}

/** The kinds of keep-alive, as bits of {@link StreamProgress.keepAliveKinds}. */
export const KeepAlive = {
  /** An SSE comment (`: ping`). */
  comment: 1,
  /** A `data:` event that brought nothing of the reply. */
  emptyEvent: 2,
  /** A line that is no SSE. */
  oddLine: 4,
  /** An `event:`, `id:` or `retry:` line, or a bare line end. */
  noData: 8,
} as const;

/** What each kind is called in a message, in the order of its bit. */
const NAMES: readonly string[] = [
  'comments',
  'chunks without text, reasoning or tool calls',
  'lines that are not SSE',
  'SSE lines without data (event:, id:, retry: or empty lines)',
];

/**
 * The kinds of keep-alive in `kinds` as a message names them, e.g. `comments and lines that
 * are not SSE`; when `kinds` holds none, every kind it could have been (joined by `or`).
 */
export function keepAliveNames(kinds: number): string {
  const names = NAMES.filter((_, bit) => kinds & (1 << bit));
  if (names.length === 0) return listed(NAMES, 'or');
  return listed(names, 'and');
}

function listed(names: readonly string[], last: string): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} ${last} ${names.at(-1)!}`;
}
