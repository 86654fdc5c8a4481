/**
 * Helpers that turn model text into something safe for one terminal line: no escape
 * sequences or control characters, bidi controls and the characters that show as nothing
 * marked, measured in terminal columns as `string-width` measures them (the measure
 * `log-update` redraws by, so a line we fit never wraps there), cut on grapheme boundaries
 * with a visible `…`.
 *
 * @module
 */
import stringWidth from 'string-width';
import stripAnsi from 'strip-ansi';
import { INVISIBLE_CLASS, markInvisible } from '../visible-text.js';
import { cutStart, ELLIPSIS } from './cut-start.js';

export { ELLIPSIS } from './cut-start.js';

// Controls still there once the escape sequences are gone (a lone ESC, BEL, backspace, C1);
// line breaks and tabs stay, for `oneLine` to turn into spaces.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** `text` spelled in tag characters (U+E0020 to U+E007E), as a subdivision flag spells its region. */
const tags = (text: string): string => String.fromCodePoint(...[...text].map((c) => 0xe0000 + c.charCodeAt(0)));
// The England, Scotland and Wales flags: a black flag, the region in tags, a cancel tag.
// Only these three are kept whole: any other tag run (which can spell text after a name that
// no terminal shows) is marked.
const TAG_FLAGS = ['gbeng', 'gbsct', 'gbwls'].map((region) => `\u{1f3f4}${tags(region)}\u{e007f}`);
// What the approval question marks as hiding text or turning it around (`\u202Eexe.txt`
// shows as `txt.exe`; `expl\u200Bore` looks like `explore`), so a trick played on the reader
// shows instead of working; but the joiners (U+200C, U+200D) and the emoji presentation
// selector (U+FE0F) stay: emoji sequences and several scripts need them.
const INVISIBLE = new RegExp(`${TAG_FLAGS.join('|')}|(?![\\u200c\\u200d\\ufe0f])[${INVISIBLE_CLASS}]`, 'gu');
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
 * Removes escape sequences (with `strip-ansi`) and control characters, keeping line breaks
 * and tabs, and marks bidi controls and the characters that show as nothing (zero-width
 * space, BOM, soft hyphen, tags, variation selectors...) as `markInvisible` does (`<U+202E>`,
 * `<U+200B>`); joiners, U+FE0F and the England, Scotland and Wales flags stay whole.
 *
 * @example
 * ```ts
 * stripControls('\u001b[31mred\u001b[0m\n'); // 'red\n'
 * stripControls('a\u202Eb'); // 'a<U+202E>b'
 * ```
 */
export function stripControls(text: string): string {
  return stripAnsi(text).replace(CONTROLS, '').replace(INVISIBLE, (match) => (match.startsWith('\u{1f3f4}') ? match : markInvisible(match)));
}

/**
 * Flattens text to one line: controls removed, every run of whitespace made one space.
 *
 * @example
 * ```ts
 * oneLine('a\n\n  b'); // 'a b'
 * ```
 */
export function oneLine(text: string): string {
  return stripControls(text).replace(/\s+/g, ' ');
}

/**
 * The end of the one-line form of `text`, at most `max` UTF-16 code units long, without
 * leading space. When the start was cut, it begins with `…` and never with part of a
 * character: half a surrogate pair, a lone accent or joiner, half a flag. Counted in code
 * units, not graphemes: this runs for every streamed delta (segmenting costs microseconds),
 * and the line is cut to the terminal's columns later anyway.
 *
 * @example
 * ```ts
 * tail('ab\ncd', 4); // '…cd' (the cut began at the space, which is dropped)
 * ```
 */
export function tail(text: string, max: number): string {
  return cutStart(oneLine(text), max);
}

/**
 * `tail(current + delta, max)` for a `current` that is already a tail: only the delta is
 * cleaned, not the whole line again, since this runs for every streamed delta.
 *
 * @example
 * ```ts
 * appendTail('…lo wor', 'ld', 8); // '…o world'
 * ```
 */
export function appendTail(current: string, delta: string, max: number): string {
  const piece = oneLine(delta);
  // the seam may join two runs of whitespace, which oneLine would have made one space
  return cutStart(current.endsWith(' ') && piece.startsWith(' ') ? current + piece.slice(1) : current + piece, max);
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
