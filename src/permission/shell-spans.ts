/**
 * Finding where a quoted string or a substitution of a bash command line ends, the way
 * bash reads it: quotes inside a `$(...)` belong to it, a backslash escapes the next
 * character, a `#` at the start of a word starts a comment.
 *
 * @module
 */

/** The index of the `)` closing a `(` just before `from`, skipping quotes and nested parentheses; -1 when none. */
export function findClose(text: string, from: number): number {
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
      const end = findDoubleEnd(text, i + 1);
      if (end < 0) return -1;
      i = end + 1;
    } else if (c === '`') {
      const end = findBacktick(text, i + 1);
      if (end < 0) return -1;
      i = end + 1;
    } else if (c === '#' && (i === from || /\s/.test(text[i - 1]!))) {
      const end = text.indexOf('\n', i);
      if (end < 0) return -1;
      i = end;
    } else {
      if (c === '(') depth += 1;
      if (c === ')' && --depth === 0) return i;
      i += 1;
    }
  }
  return -1;
}

/** The index of the `"` closing a double-quoted string that starts before `from`; -1 when none. */
function findDoubleEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') i += 1;
    else if (c === '"') return i;
    else if (c === '`') {
      const end = findBacktick(text, i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (c === '$' && text[i + 1] === '(') {
      const end = findClose(text, i + 2);
      if (end < 0) return -1;
      i = end;
    }
  }
  return -1;
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
