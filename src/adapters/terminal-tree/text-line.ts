/**
 * Helpers that turn model text into something safe for one terminal line: no escape
 * sequences or control characters, bidi controls and zero-width characters marked, measured in terminal columns as `string-width` measures
 * them (the measure `log-update` redraws by, so a line we fit never wraps there), cut on
 * grapheme boundaries with a visible `…`.
 *
 * @module
 */
import stringWidth from 'string-width';
import stripAnsi from 'strip-ansi';
import { markInvisible } from '../visible-text.js';

/** What a cut leaves in place of the text it removed. */
export const ELLIPSIS = '…';

// Controls still there once the escape sequences are gone (a lone ESC, BEL, backspace, C1);
// line breaks and tabs stay, for `oneLine` to turn into spaces.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Bidi embeddings, overrides, isolates and marks reorder what follows them on the terminal
// (`\u202Eexe.txt` shows as `txt.exe`): marked as the approval question marks them, so a
// trick played on the reader shows instead of working. So are the characters that show as
// nothing at all, which make two names look alike (`explore` and `expl\u200Bore`) or hide
// text: the zero-width space, the word joiner and invisible operators, the BOM, the soft
// hyphen, the deprecated format controls, the interlinear annotation marks. The joiners
// (U+200C, U+200D) stay: emoji sequences and several scripts need them.
const INVISIBLE = /[\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;
// What cannot begin a grapheme: marks (variation selectors among them), joiners, emoji
// modifiers and tags. A cut that starts on one would show it alone (a stray accent, a
// skin-tone square).
const DANGLING = /^[\p{M}\u200d\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]+/u;
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
 * space, BOM, soft hyphen...) as `markInvisible` does (`<U+202E>`, `<U+200B>`).
 *
 * @example
 * ```ts
 * stripControls('\u001b[31mred\u001b[0m\n'); // 'red\n'
 * stripControls('a\u202Eb'); // 'a<U+202E>b'
 * ```
 */
export function stripControls(text: string): string {
  return stripAnsi(text).replace(CONTROLS, '').replace(INVISIBLE, (control) => markInvisible(control));
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

function cutStart(text: string, max: number): string {
  const line = text.trimStart();
  if (line.length <= max) return line;
  if (max < 1) return '';
  let at = line.length - (max - 1);
  const unit = line.charCodeAt(at);
  // the cut split a surrogate pair: skip its orphaned second half
  if (unit >= 0xdc00 && unit <= 0xdfff) at += 1;
  // flags are pairs of regional indicators, paired from the start of their run
  else if (isRegionalIndicator(line, at) && regionalIndicatorsBefore(line, at) % 2 === 1) at += 2;
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
  if (PLAIN.test(text)) return text.length <= width ? text : width < 1 ? '' : `${text.slice(0, width - 1)}${ELLIPSIS}`;
  const limit = (Math.max(0, width) + 1) * UNITS_PER_COLUMN;
  // a longer text is cut whatever its width: only its start is measured (see UNITS_PER_COLUMN)
  const head = text.length > limit ? text.slice(0, limit) : text;
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
