/**
 * Model text marked and cut to a few columns, marking only the start that can show. Marking
 * costs about a microsecond per marked character and makes eight of one (`<U+200B>`): the
 * model names a tool, and a name of 2,000,000 zero-width spaces (which a model server may
 * well send) took seconds to mark whole, per event, on the terminal and on the web page,
 * for a label of 64 columns.
 *
 * Why a head is enough: `truncate(t, width)` reads only `t`'s first `measuredUnits(width) - 1`
 * units and whether `t` is longer. Marking never shortens text and marks a start of a text as
 * the start of the whole is marked (but for its last {@link LONGEST_MARKED} units), so a head
 * of `measuredUnits(width)` units and that margin, marked, is longer than `truncate` reads and
 * starts as the whole marked does: it is cut to the same label. (`truncateMarked` reads on
 * only to the end of the mark the cut falls in, the mark of a character `truncate` read.)
 *
 * @module
 */
import { markSafeEnd } from '../../text/marked-head.js';
import { headOf } from '../../text/whole-chars.js';
import { markInvisible, visibleLines } from '../../text/visible-text.js';
import { flatLine, LONGEST_MARKED, markHidden } from './clean-line.js';
import { ELLIPSIS, measuredUnits, truncate } from './text-line.js';


/** The start of `text` that decides how its marked form is cut to `width` columns. */
function shownHead(text: string, width: number): string {
  // `headOf` keeps a character whole, so it may give one unit less: hence the `+ 1`
  return headOf(text, measuredUnits(width) + LONGEST_MARKED + 1);
}

/**
 * `truncate(marked, width)`, but never inside a mark (`<U+202E>`) of `marked`: a cut that
 * would split one (`…il<U+20…`, which hides which character was there) falls before it.
 *
 * @example
 * ```ts
 * truncateMarked('evil<U+202E>', 8); // 'evil…', where truncate gives 'evil<U+…'
 * ```
 */
export function truncateMarked(marked: string, width: number): string {
  const cut = truncate(marked, width);
  if (cut === marked || !cut.endsWith(ELLIPSIS)) return cut;
  const kept = cut.length - ELLIPSIS.length;
  // Where a literal `<U+...>` is left unmarked (`oneLine`), a cut before what reads as a mark loses nothing a reader could tell apart.
  const end = markSafeEnd(marked, kept);
  return end === kept ? cut : `${marked.slice(0, end)}${ELLIPSIS}`;
}

/**
 * `truncateMarked(markInvisible(text), width)`, marking only the start that shows.
 *
 * @example
 * ```ts
 * fitMarked('a\u200Bb', 40); // 'a<U+200B>b'
 * ```
 */
export function fitMarked(text: string, width: number): string {
  return truncateMarked(markInvisible(shownHead(text, width)), width);
}

/**
 * `truncateMarked(visibleLines(text).join(' ⏎ '), width)`: the lines on one line, joined by
 * `⏎`, marking only the start that shows.
 *
 * @example
 * ```ts
 * fitLines('npm test\nnpm run build', 40); // 'npm test ⏎ npm run build'
 * ```
 */
export function fitLines(text: string, width: number): string {
  return truncateMarked(visibleLines(shownHead(text, width)).join(' ⏎ '), width);
}

/**
 * `truncateMarked(oneLine(text), width)`, marking only the start that shows. The escape
 * sequences and controls are removed from the whole first (cheap): a cut sequence would show
 * its rest.
 *
 * @example
 * ```ts
 * fitOneLine('a\n\n  b\u200B', 40); // 'a b<U+200B>'
 * ```
 */
export function fitOneLine(text: string, width: number): string {
  return truncateMarked(markHidden(shownHead(flatLine(text), width)), width);
}
