import { markInvisible } from './visible-text.js';
import { headOf, wholeEnd } from './whole-chars.js';

// A mark as `markInvisible` writes it. In marked text `<U+` always starts one: a literal `<U+`
// is marked itself (`<U+003C>U+`).
const MARK = /<U\+[0-9A-F]{4,6}>/y;

/**
 * Where a cut of `marked` (marked text, see `markInvisible`) at `end` must fall so that it
 * splits no mark: `end` itself, or the start of the mark it would split (`evil<U+20|2E>` is cut
 * before `<U+202E>`, which would otherwise hide which character was there).
 *
 * @example
 * ```ts
 * markSafeEnd('evil<U+202E>', 7); // 4
 * markSafeEnd('evil<U+202E>', 3); // 3
 * ```
 */
export function markSafeEnd(marked: string, end: number): number {
  // only the last `<` kept can start a mark that runs past the cut: marks hold no `<`
  const open = marked.lastIndexOf('<', end - 1);
  if (open === -1) return end;
  MARK.lastIndex = open;
  const mark = MARK.exec(marked);
  return mark !== null && open + mark[0].length > end ? open : end;
}

/**
 * Where a cut of `marked` (marked text, see `markInvisible`) that keeps its end from `start`
 * must begin so that it splits no mark: `start` itself, or the end of the mark it would split
 * (`<U+20|2E>evil` keeps `evil`: `2E>` alone would hide which character was there).
 *
 * @example
 * ```ts
 * markSafeStart('<U+202E>evil', 4); // 8
 * markSafeStart('<U+202E>evil', 9); // 9
 * ```
 */
export function markSafeStart(marked: string, start: number): number {
  // only the last `<` before the cut can start a mark that runs past it: marks hold no `<`
  const open = start > 0 ? marked.lastIndexOf('<', start - 1) : -1;
  if (open === -1) return start;
  MARK.lastIndex = open;
  const mark = MARK.exec(marked);
  return mark !== null && open + mark[0].length > start ? open + mark[0].length : start;
}

/**
 * `text` marked as by `markInvisible` (`<U+001B>`), at most `max` characters long once
 * marked (`max` of 1 or more): when it does not fit, its start, ending in `…`. The bound is on
 * what is shown: a mark takes eight characters, so a text cut first and marked after could come
 * out eight times the length asked. A cut never splits a mark (which would hide which character
 * was there) nor a character; only the start that can show is marked, so a megabyte of
 * controls costs what `max` of them do.
 *
 * @example
 * ```ts
 * markedHead('ok\u0001', 80); // 'ok<U+0001>'
 * markedHead('\u0001'.repeat(1_000), 20); // '<U+0001><U+0001>…'
 * ```
 */
export function markedHead(text: string, max: number): string {
  // marking never shortens text: past its first `max` characters nothing can show
  const head = headOf(text, max);
  const marked = markInvisible(head);
  if (head.length === text.length && marked.length <= max) return marked;
  return `${marked.slice(0, markSafeEnd(marked, wholeEnd(marked, max - 1)))}…`;
}
