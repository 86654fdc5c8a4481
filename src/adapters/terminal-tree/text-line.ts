/**
 * Helpers that turn model text into something safe for one terminal line: no escape
 * sequence or control character left raw, bidi controls and the characters that show as
 * nothing marked, measured in terminal columns as `string-width` measures them (the measure
 * `log-update` redraws by, so a line we fit never wraps there), cut on grapheme boundaries
 * with a visible `…`.
 *
 * @module
 */
import stringWidth from 'string-width';
import { cutStart, ELLIPSIS } from './cut-start.js';
import { LONGEST_MARKED, markedLineEnd } from './clean-line.js';

export { ELLIPSIS } from './cut-start.js';
export { markedLine, oneLine, stripControls } from './clean-line.js';

// Printable ASCII: one column per character, no grapheme to keep whole.
const PLAIN = /^[\u0020-\u007e]*$/;
const graphemes = new Intl.Segmenter();
/**
 * How many UTF-16 code units per column of the width a cut looks at: far more than any real
 * grapheme takes (an accented letter 2, a flag 4, a family emoji 11 for two columns). Only
 * that start of a long text is measured: `Intl.Segmenter` (behind `string-width`) takes
 * time quadratic in the whole string's length, and a 100,000-character line took 40 s.
 */
const UNITS_PER_COLUMN = 8;

/**
 * The end of `text` as {@link markedLine} shows it (one line, controls marked), at most `max`
 * UTF-16 code units long, without leading space. When the start was cut, it begins with `…`
 * and never with part of a character or of a mark: half a surrogate pair, a lone accent or
 * joiner, half a flag, `01B>`. Counted in code units, not graphemes: this runs for every
 * streamed delta (segmenting costs microseconds), and the line is cut to the terminal's
 * columns later anyway. Only the end that can show is marked: a text of a megabyte costs
 * what `max` units of it do.
 *
 * @example
 * ```ts
 * tail('ab\ncd', 4); // '…cd' (the cut began at the space, which is dropped)
 * tail('a\u0007b', 60); // 'a<U+0007>b'
 * ```
 */
export function tail(text: string, max: number): string {
  return cutStart(markedEnd(text, max), max);
}

/**
 * `tail(current + delta, max)` for a `current` that is already a tail: only the delta is
 * marked, not the whole line again, since this runs for every streamed delta.
 *
 * @example
 * ```ts
 * appendTail('…lo wor', 'ld', 8); // '…o world'
 * ```
 */
export function appendTail(current: string, delta: string, max: number): string {
  const piece = markedEnd(delta, max);
  // the seam may join two runs of whitespace, which markedLine would have made one space
  return cutStart(current.endsWith(' ') && piece.startsWith(' ') ? current + piece.slice(1) : current + piece, max);
}

/** The end of `markedLine(text)` a tail of `max` units is cut from (see `markedLineEnd`). */
function markedEnd(text: string, max: number): string {
  return markedLineEnd(text, max + LONGEST_MARKED + 1);
}

/**
 * Cuts text without escape sequences to at most `width` terminal columns (as `string-width`
 * counts them: emoji and CJK take two), ending with `…` when something was cut. Cuts fall
 * between graphemes, so an emoji sequence (`👩‍💻`) or a letter with its accents stays whole.
 * Only the start of a long text is measured (8 code units per column), so a line of a
 * megabyte (a pasted prompt, a heredoc in a command) costs what a short one does.
 *
 * @example
 * ```ts
 * truncate('abcdef', 4); // 'abc…'
 * truncate('ok ✅ done', 5); // 'ok ✅…' (the emoji takes two columns)
 * ```
 */
export function truncate(text: string, width: number): string {
  const limit = measuredUnits(width) - 1;
  // a longer text is cut whatever its width: only its start is measured (see UNITS_PER_COLUMN),
  // the check for plain ASCII included, which would otherwise scan a megabyte to cut it to 80
  const head = text.length > limit ? text.slice(0, limit) : text;
  if (PLAIN.test(head)) return text.length <= width ? text : width < 1 ? '' : `${text.slice(0, width - 1)}${ELLIPSIS}`;
  if (head === text && stringWidth(text) <= width) return text;
  if (width < 1) return '';
  let out = '';
  let used = 0;
  for (const { segment, index } of graphemes.segment(head)) {
    // the head's end may split its last grapheme (half a surrogate pair, a letter without its accents)
    if (head !== text && index + segment.length === head.length) break;
    const columns = stringWidth(segment);
    if (used + columns > width - 1) break;
    out += segment;
    used += columns;
  }
  return `${out}${ELLIPSIS}`;
}

/**
 * How many UTF-16 code units of a text {@link truncate} may look at to cut it to `width`
 * columns: a text kept to this many (its start) is cut to exactly what the whole would be.
 * A line built of long parts (a task's description, its error) keeps each to this first, so
 * a frame never copies more than it can show.
 *
 * @example
 * ```ts
 * measuredUnits(80); // 649
 * ```
 */
export function measuredUnits(width: number): number {
  return (Math.max(0, width) + 1) * UNITS_PER_COLUMN + 1;
}
