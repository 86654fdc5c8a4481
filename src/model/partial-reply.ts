import type { TokenUsage } from './chat-model.js';

/** What a response had brought when it failed. */
export interface PartialReply {
  /**
   * Characters read: of text, reasoning and tool-call arguments for a stream, of the body
   * itself for a whole JSON completion (its structure included: it was not understood).
   */
  readonly chars: number;
  /** The usage the server sent before the failure (some send it with every chunk): what it billed. */
  readonly usage?: TokenUsage;
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
