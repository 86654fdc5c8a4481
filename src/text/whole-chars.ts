/**
 * Cuts that never split a character in two. A JavaScript string counts UTF-16 units, and a
 * character outside the Basic Multilingual Plane (most emoji, many CJK ideographs) is two
 * of them: a cut between the two leaves a lone surrogate, which is no text. Sent to a model
 * server it is `\ud83d` in the JSON, which a strict server refuses (the whole request
 * fails), and stored in a session it stays there. Every cut of text a model or a store
 * will read goes through these.
 *
 * @module
 */

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/**
 * `end` as the end of a cut of `text`, moved back one unit when it falls between the two
 * halves of a character.
 *
 * @example
 * ```ts
 * wholeEnd('a😀', 2); // 1: "a", not "a" and half the emoji
 * ```
 */
export function wholeEnd(text: string, end: number): number {
  if (end <= 0 || end >= text.length) return end;
  return isHigh(text.charCodeAt(end - 1)) && isLow(text.charCodeAt(end)) ? end - 1 : end;
}

/**
 * `start` as the start of a cut of `text`, moved on one unit when it falls between the two
 * halves of a character.
 *
 * @example
 * ```ts
 * wholeStart('😀b', 1); // 2: "b", not half the emoji and "b"
 * ```
 */
export function wholeStart(text: string, start: number): number {
  if (start <= 0 || start >= text.length) return start;
  return isLow(text.charCodeAt(start)) && isHigh(text.charCodeAt(start - 1)) ? start + 1 : start;
}

/**
 * The first `max` units of `text` at most, without a half character at the end.
 *
 * @example
 * ```ts
 * headOf('ab😀', 3); // 'ab'
 * ```
 */
export function headOf(text: string, max: number): string {
  return text.slice(0, wholeEnd(text, Math.max(0, max)));
}

/**
 * The last `max` units of `text` at most, without a half character at the start.
 *
 * @example
 * ```ts
 * tailOf('😀ab', 3); // 'ab'
 * ```
 */
export function tailOf(text: string, max: number): string {
  if (max <= 0) return '';
  return text.slice(wholeStart(text, Math.max(0, text.length - max)));
}
