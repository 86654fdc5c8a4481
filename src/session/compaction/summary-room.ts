/** The shortest summary worth asking for, in tokens (the least a compaction asks for, too). */
export const MIN_SUMMARY_TOKENS = 64;

/** The least transcript worth summarising, in estimated tokens: a few short messages. */
export const MIN_TRANSCRIPT_TOKENS = 128;

/** How a summary request shares the summariser's window (see {@link summaryRoom}). */
export interface SummaryRoom {
  /** Estimated tokens the transcript may take. */
  readonly transcriptTokens: number;
  /** The request's `max_tokens`, in the server's tokens. */
  readonly answerTokens: number;
}

/**
 * How a summary request fits the window of the model that writes it: the prompt (`promptTokens`,
 * the summariser's instructions with a margin) first, then the answer, at most `asked` and at
 * most half of what is left (the other half is the transcript's), then the transcript. The
 * answer is what the server counts in its window beside the prompt (vLLM and OpenAI refuse a
 * request whose prompt and `max_tokens` exceed it): a 2,000-token summary asked of a 1K
 * summariser would be refused however short its transcript. `ratio` (the server's tokens per
 * estimated token) converts the answer's room when the estimate overcounts (below 1).
 * `undefined` when not even {@link MIN_TRANSCRIPT_TOKENS} of transcript and a
 * {@link MIN_SUMMARY_TOKENS} answer fit: such a request is hopeless, and is not sent.
 *
 * @example
 * ```ts
 * summaryRoom(1_024, 100, 2_000, 1); // { transcriptTokens: 462, answerTokens: 462 }
 * summaryRoom(16_384, 100, 2_000, 1); // { transcriptTokens: 14_284, answerTokens: 2_000 }
 * ```
 */
export function summaryRoom(window: number, promptTokens: number, asked: number, ratio: number): SummaryRoom | undefined {
  const free = window - promptTokens;
  if (free < MIN_TRANSCRIPT_TOKENS + MIN_SUMMARY_TOKENS) return undefined;
  // Half of `free` is at least 96 tokens (it holds both floors): less only when less is asked.
  const answer = Math.min(asked, Math.floor(free / 2));
  return { transcriptTokens: free - answer, answerTokens: Math.max(1, Math.floor(answer * Math.min(1, ratio))) };
}
