/**
 * Shows text a human must judge (a command or path waiting for approval) exactly as it is:
 * nothing that renders as nothing, moves the cursor or turns text around is left raw.
 *
 * @module
 */

/**
 * The characters that show as nothing or turn text around, as the inside of a character
 * class of a `u` regex: the format characters (bidi overrides and isolates, zero-width
 * characters and joiners, the BOM, tags, invisible operators and musical beams), and the
 * characters that render blank although they are letters (Hangul fillers, the Braille
 * blank) or marks (variation selectors, the grapheme joiner). The one list of them: the
 * terminal tree marks these too (`adapters/terminal-tree/clean-line.ts`).
 */
export const INVISIBLE_CLASS = String.raw`\p{Cf}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\uffa0\ufe00-\ufe0f\u{e0100}-\u{e01ef}`;
// Those, and controls (line breaks included), lone surrogates, line and paragraph
// separators, spaces other than U+0020 (skipped here: text is full of them, and each match
// costs a call).
const HIDDEN = new RegExp(String.raw`(?! )[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\p{Zs}${INVISIBLE_CLASS}]|<U\+`, 'gu');

/** The mark of one match of `HIDDEN`. */
function markOf(match: string): string {
  return match === '<U+' ? '<U+003C>U+' : `<U+${match.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * Marks every character that would be invisible or misleading on a terminal (see the
 * module) as `<U+XXXX>`, line breaks included, so the result is one line. A literal `<U+`
 * in the text is marked too (`<U+003C>U+`), so what is shown reads back to exactly the
 * text. Costs about a microsecond per marked character: a caller that shows only the start
 * of a long text marks only that start.
 *
 * @example
 * ```ts
 * markInvisible('echo "\u202Eexe.txt"'); // 'echo "<U+202E>exe.txt"'
 * ```
 */
export function markInvisible(text: string): string {
  return markMatches(text, HIDDEN, markOf);
}

/**
 * `text` with each match of `pattern` (a `g` regex) replaced by `markOf(match)`: the slices
 * between the matches appended (as `wireJson` does; `replace` with a callback and a `u` regex
 * took twice as long), the mark of a run of one character (the usual hostile text) worked out
 * once, and no copy made when nothing matches. Linear in `text`.
 *
 * @example
 * ```ts
 * markMatches('a\tb', /\t/g, () => '<TAB>'); // 'a<TAB>b'
 * ```
 */
export function markMatches(text: string, pattern: RegExp, markOf: (match: string) => string): string {
  if (text.search(pattern) === -1) return text;
  let out = '';
  let from = 0;
  let last = '';
  let lastMark = '';
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0] !== last) {
      last = match[0];
      lastMark = markOf(last);
    }
    out += text.slice(from, match.index) + lastMark;
    from = pattern.lastIndex;
  }
  return out + text.slice(from);
}

/**
 * The text as lines to show one under the other: split at each line break (`\n`), every
 * other invisible or misleading character marked as by {@link markInvisible}. A `\r` is
 * marked, not treated as a break: it would move the cursor back over what was shown.
 *
 * @example
 * ```ts
 * visibleLines('echo safe\nrm -rf ~\u200B'); // ['echo safe', 'rm -rf ~<U+200B>']
 * ```
 */
export function visibleLines(text: string): string[] {
  return text.split('\n').map(markInvisible);
}
