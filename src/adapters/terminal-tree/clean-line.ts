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
import { tailOf } from '../../text/whole-chars.js';

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

// What `markedLine` marks: the controls `flatLine` removes (ESC among them), and what `markHidden` marks.
const MARKED = new RegExp(`${INVISIBLE.source}|${CONTROLS.source}`, 'gu');

/**
 * Model text as one line that shows what it holds: every run of whitespace made one space,
 * and every control marked as `markInvisible` marks it (`<U+001B>`, the printable rest of an
 * escape sequence kept as text), not dropped unseen; what {@link markHidden} marks, marked.
 * For text a UI draws as it is (the task tree's description, error and streamed tail): a
 * page then shows that something was there, as a name shows it (`shownTreeName`). Marking a
 * text piece by piece gives the marking of the whole (but for a tag flag split between two).
 *
 * @example
 * ```ts
 * markedLine('\u001b[31mred\u001b[0m\n ok'); // '<U+001B>[31mred<U+001B>[0m ok'
 * ```
 */
export function markedLine(text: string): string {
  return markedLineEnd(text, Infinity);
}

/**
 * `markedLine(text)` when it comes from at most `units` units of the one-line text, else the
 * marking of its last `units` (never half a character): it ends as `markedLine(text)` does, the
 * last `units - LONGEST_MARKED - 1` units of the line marked the same. Only that end is
 * marked, which costs per marked character: a line of a megabyte costs what `units` of it do.
 */
export function markedLineEnd(text: string, units: number): string {
  // whitespace is made one space on the whole first (natively, cheap on any length): a cut run would leave another
  const line = text.replace(SPACES, ' ');
  return markMatches(line.length > units ? tailOf(line, units) : line, MARKED, markOf);
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
  return markMatches(text, INVISIBLE, markOf);
}

/** A tag flag kept whole; anything else marked as `markInvisible` marks it. */
function markOf(match: string): string {
  return match.startsWith('\u{1f3f4}') ? match : markInvisible(match);
}
