/** What encoding a reply needs to know about the request it answers. */
export interface ReplyContext {
  /** The request's index, used for ids (`chatcmpl-fake-<index>`, `call_<index>_<n>`). */
  readonly requestIndex: number;
  /** Echoed as the response's `model`, like OpenAI does. */
  readonly model: string;
  /** Unix seconds for `created`. */
  readonly created: number;
  /** The request asked for `stream_options.include_usage`. */
  readonly includeUsage: boolean;
}

/** Default characters per streamed text delta. */
export const DEFAULT_CHUNK_SIZE = 16;

/**
 * Cuts `text` into pieces of at most `size` characters (code points, so no surrogate pair
 * is split). An empty text gives no pieces.
 *
 * @example
 * ```ts
 * splitText('abcde', 2); // ['ab', 'cd', 'e']
 * ```
 */
export function splitText(text: string, size: number): string[] {
  const chars = Array.from(text);
  const step = Math.max(1, Math.floor(size));
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += step) pieces.push(chars.slice(i, i + step).join(''));
  return pieces;
}

/**
 * Cuts tool-call arguments into at least two pieces whenever they have two characters or
 * more, because real servers stream arguments in fragments and clients must reassemble.
 *
 * @example
 * ```ts
 * splitArguments('{}', 16); // ['{', '}']
 * ```
 */
export function splitArguments(text: string, size: number): string[] {
  const length = Array.from(text).length;
  return splitText(text, Math.min(size, Math.max(1, Math.ceil(length / 2))));
}
