/**
 * Cutting the start off a line, by UTF-16 code units, without leaving part of a character
 * at the new start: half a surrogate pair, a lone accent or joiner, half a flag, the end of
 * a mark (`<U+001B>`).
 *
 * @module
 */
import { markSafeStart } from '../../text/marked-head.js';

/** What a cut leaves in place of the text it removed. */
export const ELLIPSIS = '…';

// What cannot begin a grapheme: marks (variation selectors among them), joiners, emoji
// modifiers and tags. A cut that starts on one would show it alone (a stray accent, a
// skin-tone square).
const DANGLING = /^[\p{M}\u200d\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]+/u;

/**
 * The end of `text` (its leading space dropped), at most `max` code units long: when the
 * start was cut, `…` and then the rest from the first whole character or mark.
 *
 * @example
 * ```ts
 * cutStart('abcdef', 4); // '…def'
 * ```
 */
export function cutStart(text: string, max: number): string {
  const line = text.trimStart();
  if (line.length <= max) return line;
  if (max < 1) return '';
  let at = line.length - (max - 1);
  const unit = line.charCodeAt(at);
  // the cut split a surrogate pair: skip its orphaned second half
  if (unit >= 0xdc00 && unit <= 0xdfff) at += 1;
  // flags are pairs of regional indicators, paired from the start of their run
  else if (isRegionalIndicator(line, at) && regionalIndicatorsBefore(line, at) % 2 === 1) at += 2;
  // the cut split a mark (`<U+0|01B>`): its end alone would not say which character was there
  else at = markSafeStart(line, at);
  return `${ELLIPSIS}${line.slice(at).replace(DANGLING, '').trimStart()}`;
}

/** Whether a regional indicator (U+1F1E6 to U+1F1FF, a flag's half) starts at `at`. */
function isRegionalIndicator(line: string, at: number): boolean {
  const low = line.charCodeAt(at + 1);
  return line.charCodeAt(at) === 0xd83c && low >= 0xdde6 && low <= 0xddff;
}

function regionalIndicatorsBefore(line: string, at: number): number {
  let count = 0;
  while (at - 2 * (count + 1) >= 0 && isRegionalIndicator(line, at - 2 * (count + 1))) count += 1;
  return count;
}
