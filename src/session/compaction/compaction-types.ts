import type { Observable } from 'rxjs';
import type { ChatMessage } from '../../model/chat-message.js';

/**
 * Why a session is compacted: its next request would not fit the context window
 * (`context-limit`), the server refused a request as too long (`context-exceeded`), or
 * someone asked (`manual`: `engine.compact`, `POST /api/sessions/:id/compact`).
 */
export type CompactionReason = 'context-limit' | 'context-exceeded' | 'manual';

/** What a compaction is asked to do. */
export interface CompactionInput {
  /** The session's messages (no system prompt), oldest first. */
  readonly messages: readonly ChatMessage[];
  /** The context window in tokens. */
  readonly window: number;
  /** Tokens every request takes besides the session: the system prompt, the tool schemas and room for the answer. */
  readonly fixedTokens: number;
  /**
   * The part of `fixedTokens` the request sends (the system prompt and tool schemas), without
   * the room for the answer: a session that cannot fit beside it, even cut to its newest step,
   * cannot be made to fit by any compaction (see `compactMessages$`).
   */
  readonly requestFixedTokens: number;
  /**
   * The window in the server's tokens, when `window` is it scaled by a token ratio learned
   * from an earlier request. That ratio is an average over a whole request (many short
   * messages, each with its template overhead, count far more than one long tool result), so
   * whether what a summary keeps can fit at all is judged against the larger of the two: a
   * summary is skipped as futile only when it surely is.
   */
  readonly serverWindow?: number;
  readonly reason: CompactionReason;
  /**
   * The current turn's prompt as it was given (`RunInput.prompt`), which the last user message
   * ends with. Background results are cut only in the engine's block in front of it; a prompt
   * that itself starts like that block stays whole. Absent: no results are cut.
   */
  readonly prompt?: string;
  /**
   * Writes the summary of `head` in at most `maxTokens`; errors when it cannot (the
   * compaction then keeps the old messages if, pruned, they are under its target and no
   * server refused the request, else a plain note, and says why).
   */
  readonly summarise: (head: readonly ChatMessage[], maxTokens: number) => Observable<WrittenSummary>;
}

/** What a summariser wrote. */
export interface WrittenSummary {
  /** The summary (cut to its limit by the compaction when longer). */
  readonly text: string;
  /** Set when the reply was not read to its end, or the server cut it at its limit, and why: `text` is its start (a model streaming without end, a `finish_reason` of `length`). */
  readonly stopped?: string;
}

/** What a compaction did. */
export interface CompactionOutcome {
  /** The compacted session: roles alternate as before, every tool result still follows its call. */
  readonly messages: readonly ChatMessage[];
  /** The session's estimated tokens before (the session only; add the fixed part for a request). */
  readonly tokensBefore: number;
  /** The session's estimated tokens after. */
  readonly tokensAfter: number;
  /** How many old tool results had their output replaced by a short note. */
  readonly prunedToolResults: number;
  /** How many of the oldest messages a summary replaced (0: none). */
  readonly summarisedMessages: number;
  /**
   * Why the summary kept is not the one written: none could be written (the old messages were
   * kept when the pruned session is under the target, never after a refusal, else a plain
   * note replaced them), or it was longer
   * than asked (it was cut to its limit).
   */
  readonly summaryError?: string;
  /**
   * Set when the background results in front of the turn's prompt were cut to fit (a note in
   * the block says so to the model): the characters of their contents before and after.
   */
  readonly resultsCut?: { readonly before: number; readonly after: number };
}
