import { markSafeEnd } from '../text/marked-head.js';
import { markInvisible } from '../text/visible-text.js';
import { headOf, wholeEnd } from '../text/whole-chars.js';

// A mark as `markInvisible` writes it; in marked text `<U+` always starts one (a literal `<U+` is marked itself).
const MARKS = /<U\+([0-9A-F]{4,6})>/g;

/**
 * The start of `text`, raw, that shows in at most `max` characters (`max` of 1 or more) once
 * marked as `markInvisible` marks it (`<U+001B>`), ending in `…` when cut; `text` itself when
 * it shows whole. For a text a printer marks as it prints (the CLI's usage errors, see
 * `shownError`): marked here, it would be marked again (`<U+003C>U+001B>`). Marked once and cut
 * after marking, as `markedHead` cuts (never inside a mark nor a character), then taken back to
 * the raw characters the kept marks stand for: a reason of 600 controls costs one marking of
 * 600, not one per character kept.
 *
 * @example
 * ```ts
 * rawMarkedHead('ok\u0001', 80); // 'ok\u0001' (printed 'ok<U+0001>')
 * rawMarkedHead('\u0001'.repeat(1_000), 20); // '\u0001\u0001…' (printed '<U+0001><U+0001>…')
 * ```
 */
export function rawMarkedHead(text: string, max: number): string {
  // marking never shortens text: past its first `max` characters nothing can show
  const head = headOf(text, max);
  const marked = markInvisible(head);
  if (head.length === text.length && marked.length <= max) return text;
  const kept = marked.slice(0, markSafeEnd(marked, wholeEnd(marked, max - 1)));
  return `${head.slice(0, rawLength(kept))}…`;
}

/** How many UTF-16 units of the text `marked` (marked text, cut between marks) came from: a mark stands for its one character. */
function rawLength(marked: string): number {
  let length = marked.length;
  for (const [mark, hex] of marked.matchAll(MARKS)) length -= mark.length - (Number.parseInt(hex!, 16) > 0xffff ? 2 : 1);
  return length;
}
