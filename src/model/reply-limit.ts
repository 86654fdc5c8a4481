import { argumentsText } from './arguments-text.js';
import { CHARS_PER_TOKEN } from './estimate-tokens.js';
import { ModelError } from './model-error.js';
import type { ToolCallFragment } from './tool-call-fragments.js';

/**
 * How much one reply may bring before it is given up. The idle timeout never fires on a
 * server that keeps streaming, so a server that ignores `max_tokens` (or a model that loops)
 * would otherwise hold the run, its session and a reply growing without end.
 */
export interface ReplyLimit {
  /** The request's `max_tokens` (or `max_completion_tokens`), when it set one. */
  readonly maxTokens: number | undefined;
  /** Characters of text, reasoning and tool-call arguments together a streamed reply may bring. */
  readonly chars: number;
  /** Bytes a whole JSON completion (a server that ignored `stream: true`) may take. */
  readonly jsonBytes: number;
}

/** Characters a reply may stream when its request sets no `max_tokens`: some two million tokens, far above any real answer, far below what strains the process. */
export const MAX_REPLY_CHARS = 8 * 1024 * 1024;
/**
 * The least a reply with a `max_tokens` may stream: generous, since servers count tokens their
 * own way (reasoning apart, a tokenizer of short tokens); only a runaway reaches it.
 */
const MIN_REPLY_CHARS = 1024 * 1024;
/** Bytes a JSON body may spend on each character: UTF-8 takes up to three, escapes more, structure a little. */
const JSON_BYTES_PER_CHAR = 4;

/**
 * Characters a reply of at most `maxTokens` tokens may stream before it is given up: four
 * times what an honest server sends for that many tokens, and at least `floor`. The
 * compaction's summary limit (`summaryStreamLimit`) follows the same rule with a small floor.
 *
 * @example
 * ```ts
 * replyCharLimit(1_000_000); // 16,000,000
 * replyCharLimit(100, 4_096); // 4,096
 * ```
 */
export function replyCharLimit(maxTokens: number, floor = MIN_REPLY_CHARS): number {
  return Math.max(floor, maxTokens * CHARS_PER_TOKEN * 4);
}

/** The limit of a request whose body is `body`: derived from its `max_tokens` when it has a usable one, else {@link MAX_REPLY_CHARS}. */
export function replyLimitOf(body: { readonly max_tokens?: unknown; readonly max_completion_tokens?: unknown }): ReplyLimit {
  const asked = body.max_tokens ?? body.max_completion_tokens;
  const maxTokens = typeof asked === 'number' && Number.isFinite(asked) && asked > 0 ? asked : undefined;
  const chars = maxTokens === undefined ? MAX_REPLY_CHARS : replyCharLimit(maxTokens);
  return { maxTokens, chars, jsonBytes: chars * JSON_BYTES_PER_CHAR };
}

/** A streamed delta's characters; a value that is no string (from an odd server) counted as it ends up written. */
export function charsOf(value: unknown): number {
  return typeof value === 'string' ? value.length : argumentsText(value).length;
}

/** The characters of the arguments in one event's tool-call fragments. */
export function argumentChars(fragments: readonly ToolCallFragment[]): number {
  let chars = 0;
  for (const f of fragments) chars += charsOf(f?.function?.arguments);
  return chars;
}

/** The error of a streamed reply that went past `limit.chars`; its request is aborted by the reader. */
export function streamedTooMuch(model: string, limit: ReplyLimit): ModelError {
  const amount = `more than ${count(limit.chars)} characters of text, reasoning and tool-call arguments`;
  return new ModelError(`model "${model}": the server streamed ${amount}${forWhat(limit)}: the reply was abandoned and its request aborted`);
}

/** The error of a JSON completion larger than `limit.jsonBytes`, refused before it is read whole. */
export function jsonTooLarge(model: string, limit: ReplyLimit): ModelError {
  return new ModelError(`model "${model}": the server answered with a JSON completion of more than ${count(limit.jsonBytes)} bytes${forWhat(limit)}: it was not read further and its request was aborted`);
}

/** What the limit was for, and what the server is then doing. */
function forWhat(limit: ReplyLimit): string {
  return limit.maxTokens === undefined
    ? ', the most a reply may bring when the request sets no maxTokens (it loops, or streams without end)'
    : ` for a reply of at most ${count(limit.maxTokens)} tokens (maxTokens): it ignores max_tokens, or loops`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
