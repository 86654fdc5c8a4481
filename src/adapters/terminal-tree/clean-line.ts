/**
 * Model text made safe for a terminal line: no escape sequences or control characters, bidi
 * controls and the characters that show as nothing marked. Split in two steps (cleaning,
 * cheap on any length; marking, which costs per marked character) so a caller that shows
 * only the start of a long text marks only that start (`fit-line.ts`).
 *
 * @module
 */
import stripAnsi from 'strip-ansi';
import { INVISIBLE_CLASS, markInvisible, markMatches } from '../../text/visible-text.js';

// Controls still there once the escape sequences are gone (a lone ESC, BEL, backspace, C1);
// line breaks and tabs stay, for `oneLine` to turn into spaces.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Runs of whitespace, as `\s+` but without U+FEFF: the one whitespace character that is
// also marked (a BOM), which must stay to be marked, not become a space.
const SPACES = /[^\S\uFEFF]+/g;
/** `text` spelled in tag characters (U+E0020 to U+E007E), as a subdivision flag spells its region. */
const tags = (text: string): string => String.fromCodePoint(...[...text].map((c) => 0xe0000 + c.charCodeAt(0)));
// The England, Scotland and Wales flags: a black flag, the region in tags, a cancel tag.
// Only these three are kept whole: any other tag run (which can spell text after a name that
// no terminal shows) is marked.
const TAG_FLAGS = ['gbeng', 'gbsct', 'gbwls'].map((region) => `\u{1f3f4}${tags(region)}\u{e007f}`);
/** The longest match of `INVISIBLE` in UTF-16 units (a tag flag): a cut may change only the marks of the text this close to it. */
export const LONGEST_MARKED = TAG_FLAGS[0]!.length;
// What the approval question marks as hiding text or turning it around (`\u202Eexe.txt`
// shows as `txt.exe`; `expl\u200Bore` looks like `explore`), so a trick played on the reader
// shows instead of working; but the joiners (U+200C, U+200D) and the emoji presentation
// selector (U+FE0F) stay: emoji sequences and several scripts need them.
const INVISIBLE = new RegExp(`${TAG_FLAGS.join('|')}|(?![\\u200c\\u200d\\ufe0f])[${INVISIBLE_CLASS}]`, 'gu');

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
  return markHidden(stripAnsi(text).replace(CONTROLS, ''));
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
  return markHidden(flatLine(text));
}

/**
 * `oneLine` before marking: escape sequences and controls removed, whitespace runs made one
 * space. Every step is a native `replace`, linear and cheap on any length. Marking it with
 * {@link markHidden} gives `oneLine(text)`: a mark holds no whitespace, so collapsing
 * whitespace before marking or after is the same.
 */
export function flatLine(text: string): string {
  return stripAnsi(text).replace(CONTROLS, '').replace(SPACES, ' ');
}

/**
 * `text` with what `INVISIBLE` matches marked (the three tag flags kept). Never shorter than
 * `text`; marking a start of `text` gives the start of marking the whole, but for the last
 * {@link LONGEST_MARKED} units (a tag flag the cut split is marked character by character).
 */
export function markHidden(text: string): string {
  // a tag flag is kept whole; anything else is marked as `markInvisible` marks it
  return markMatches(text, INVISIBLE, (match) => (match.startsWith('\u{1f3f4}') ? match : markInvisible(match)));
}
