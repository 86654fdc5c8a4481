/**
 * Finding where a quoted string or a substitution of a bash command line ends, the way
 * bash reads it: quotes inside a `$(...)` belong to it, a backslash escapes the next
 * character, a `#` at the start of a word starts a comment.
 *
 * @module
 */

/** What {@link findClose} returns when the text holds a `case` statement: see there. */
export const CASE_INSIDE = -2;
/** What {@link findClose} returns when `"$(` nest deeper than {@link MAX_NESTING}. */
export const TOO_DEEP = -3;
/**
 * How deep `"$(` may nest (each level is a call of {@link findClose} and one of the double
 * quote's reader): a line of thousands (`"$("$("$(...`) would overflow the stack. No command
 * line a person writes nests that deep; past it the line is unreadable.
 */
const MAX_NESTING = 200;

/**
 * The index of the `)` closing a `(` just before `from`, skipping quotes and nested
 * parentheses; -1 when none. A `case` statement inside (`$(case x in a) ...;; esac)`) gives
 * {@link CASE_INSIDE}: each of its patterns ends with a `)` that closes nothing, and
 * following bash's grammar here is not worth the risk of ending the span early, which would
 * turn the rest of the substitution into arguments of the command around it.
 */
export function findClose(text: string, from: number, nesting = 0): number {
  if (nesting > MAX_NESTING) return TOO_DEEP;
  let depth = 1;
  let i = from;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\') {
      i += 2;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return -1;
      i = end + 1;
    } else if (c === '$' && text[i + 1] === "'") {
      const end = findAnsiCEnd(text, i + 2);
      if (end < 0) return -1;
      i = end + 1;
    } else if (c === '"') {
      const end = findDoubleEnd(text, i + 1, nesting);
      if (end < 0) return end;
      i = end + 1;
    } else if (c === '`') {
      const end = findBacktick(text, i + 1);
      if (end < 0) return -1;
      i = end + 1;
    } else if (c === '#' && (i === from || /[ \t\n]/.test(text[i - 1]!))) {
      const end = text.indexOf('\n', i);
      if (end < 0) return -1;
      i = end;
    } else if (c === 'c' && startsCase(text, i, from)) {
      return CASE_INSIDE;
    } else {
      if (c === '(') depth += 1;
      if (c === ')' && --depth === 0) return i;
      i += 1;
    }
  }
  return -1;
}

/**
 * The index of the `)` ending the arithmetic command `((...))` whose first `(` is at `open`,
 * or -1 when bash reads it otherwise: as for `$((`, it is arithmetic only when the inner `(`
 * closes right before the outer `)` (`((rm f) )` is a subshell in a subshell). Bash reads
 * no comment there, while {@link findClose} does: with a `#` inside, -1 keeps the reading
 * that judges every word as a command (`((rm f #)`, a line break, `))` runs `rm f`).
 */
export function arithmeticEnd(text: string, open: number): number {
  const close = findClose(text, open + 1);
  if (close < 0 || findClose(text, open + 2) !== close - 1) return -1;
  return text.slice(open + 2, close - 1).includes('#') ? -1 : close;
}

/** The index of the `"` closing a double-quoted string that starts before `from`; -1 when none. */
function findDoubleEnd(text: string, from: number, nesting: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') i += 1;
    else if (c === '"') return i;
    else if (c === '`') {
      const end = findBacktick(text, i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (c === '$' && text[i + 1] === '(') {
      const end = findClose(text, i + 2, nesting + 1);
      if (end < 0) return end;
      i = end;
    }
  }
  return -1;
}

/**
 * Whether the word at `i` may be the reserved word `case`: an unquoted `case` after a blank,
 * an operator or the start, with an `esac` later (without one bash refuses the whole line, so
 * the line runs nothing). Wider than bash, which knows `case` only where a command starts:
 * a wrong guess only makes the line unreadable, never shorter.
 */
function startsCase(text: string, i: number, from: number): boolean {
  if (!text.startsWith('case', i) || !/[ \t\n]/.test(text[i + 4] ?? '')) return false;
  if (i > from && !/[ \t\n;&|()]/.test(text[i - 1]!)) return false;
  return /(?:^|[ \t\n;&|()])esac(?:$|[ \t\n;&|()])/.test(text.slice(i + 4));
}

/** The index of the backtick closing one that starts before `from`; -1 when none. */
export function findBacktick(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '`') return i;
  }
  return -1;
}

/** The index of the `'` closing a `$'...'` string whose body starts at `from`; -1 when none. */
export function findAnsiCEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === "'") return i;
  }
  return -1;
}
