import type { TokenUsage } from './chat-model.js';
import { CHARS_PER_TOKEN } from './estimate-tokens.js';

/** What a response had brought when it failed. */
export interface PartialReply {
  /**
   * Characters read: of text, reasoning and tool-call arguments for a stream, of the body
   * itself for a whole JSON completion (its structure included: it was not understood).
   */
  readonly chars: number;
  /**
   * The usage the server sent before the failure (some send it with every chunk): what it
   * billed, plus an estimate of what was read after it (see {@link usageWithLater}).
   */
  readonly usage?: TokenUsage;
}

/**
 * The usage a reply that failed is charged: the last `usage` its server sent, plus
 * `laterChars` (the characters of text, reasoning and tool-call arguments read after the
 * event that carried it, which it does not count yet) at `CHARS_PER_TOKEN` a completion
 * token. A server that sends usage with every chunk and then breaks off is charged what
 * it streamed to the end, each delta once. A usage that counts nothing (zeros) is no count,
 * and stays as it is: the charge is then the estimate of the prompt and of all that was read.
 *
 * @example
 * ```ts
 * usageWithLater({ promptTokens: 100, completionTokens: 5, totalTokens: 105 }, 40); // completion 15, total 115
 * ```
 */
export function usageWithLater(usage: TokenUsage | undefined, laterChars: number | undefined): TokenUsage | undefined {
  if (usage === undefined || !laterChars || Math.max(usage.totalTokens, usage.promptTokens + usage.completionTokens) <= 0) return usage;
  const later = Math.ceil(laterChars / CHARS_PER_TOKEN);
  return { ...usage, completionTokens: usage.completionTokens + later, totalTokens: usage.totalTokens + later };
}

/**
 * What the response of a failed model request had brought before it failed, kept beside its
 * error rather than on it (internal: no public error type grows a field for it). Only a
 * request whose response began (a 2xx answer, so the server took the prompt) is marked: its
 * token budget is charged for it (see `failedRequestTokens`), while a request refused with an
 * error status, or that never reached a server, processed nothing.
 */
const partial = new WeakMap<object, PartialReply>();

/** Notes that `error` ended a response that had begun, after it brought `reply`. */
export function markPartialReply(error: unknown, reply: PartialReply): void {
  if (typeof error === 'object' && error !== null) partial.set(error, reply);
}

/** What the response `error` ended had brought, or undefined when no response had begun. */
export function partialReplyOf(error: unknown): PartialReply | undefined {
  return typeof error === 'object' && error !== null ? partial.get(error) : undefined;
}

/** The models whose readers mark every failure of a response that began (`OpenAIChatModel`). */
const marking = new WeakSet<object>();

/** Registers `model` as one whose failed responses are marked: a step leaves the counting of what it streamed to it. */
export function notePartialReplyMarker(model: object): void {
  marking.add(model);
}

/**
 * Whether `model`'s failed responses are marked by its own reader. A step counts the deltas
 * of any other model (one of the user's own marks nothing), and only then: one count a reply.
 */
export function marksPartialReplies(model: object): boolean {
  return marking.has(model);
}
