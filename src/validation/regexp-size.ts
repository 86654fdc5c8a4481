/**
 * How large a program RE2 would compile a regex into, judged from its text before compiling.
 * RE2 (re2js) matches in time linear in the input, but each character costs up to the size of
 * the program, and the program has no bound of its own: a counted repeat (`x{1000}`) is
 * compiled as that many copies of `x`, so `\w{1000}` nine times over made each character of a
 * string cost ~340 µs, and `\w{1000}` a thousand times over (8 KB of text) took 2 s and
 * ~150 MB to compile.
 *
 * @module
 */

/** An open group: the size of its content so far, and of the last atom (what a quantifier repeats). */
interface Frame {
  total: number;
  last: number;
}

/** `{n}`, `{n,}`, `{n,m}` at `at` (the `{`): where it ends and how many copies RE2 makes; undefined when it is literal text. */
function countedRepeat(pattern: string, at: number): { readonly end: number; readonly copies: number } | undefined {
  const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at, at + 24));
  if (match === null) return undefined;
  const min = Number(match[1]);
  // `{n,}` is n copies and a star: one more.
  const max = match[2] === undefined ? min : match[3] === '' ? min + 1 : Number(match[3]);
  return { end: at + match[0].length - 1, copies: Math.max(min, max, 1) };
}

/** Where the `[...]` class opened at `at` ends: its `]`, escapes skipped (a first `]` closes it, as JavaScript reads it). */
function classEnd(pattern: string, at: number): number {
  let i = at + 1;
  if (pattern[i] === '^') i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i;
  }
  return pattern.length - 1;
}

/**
 * Where the `close` of a name or property opened at `from` is, looked for in the next 64
 * characters only (a longer name is no regex RE2 runs): `\p{` after `\p{` must not make the
 * walk quadratic. `from` itself when there is none.
 */
function nameEnd(pattern: string, from: number, close: string): number {
  const at = pattern.slice(from, from + 64).indexOf(close);
  return at === -1 ? from : from + at;
}

/** Where the escape opened at `at` (its `\`) ends: `\p{L}`, `\u{1F600}` and `\k<name>` are one atom with their braces. */
function escapeEnd(pattern: string, at: number): number {
  const kind = pattern[at + 1];
  const open = pattern[at + 2];
  if ((kind === 'p' || kind === 'P' || kind === 'u') && open === '{') return nameEnd(pattern, at + 2, '}');
  if (kind === 'k' && open === '<') return nameEnd(pattern, at + 2, '>');
  return at + 1;
}

/** Where the opening of the group at `at` (its `(`) ends: `(?:`, `(?=`, `(?<=`, `(?<name>` hold no atom. */
function groupStart(pattern: string, at: number): number {
  if (pattern[at + 1] !== '?') return at;
  const kind = pattern[at + 2];
  if (kind === '<') return pattern[at + 3] === '=' || pattern[at + 3] === '!' ? at + 3 : nameEnd(pattern, at + 2, '>');
  return kind === ':' || kind === '=' || kind === '!' ? at + 2 : at + 1;
}

/**
 * The size of the program RE2 would compile JavaScript regex `pattern` into, counted in atoms
 * (a character, a class, an escape, an anchor), each counted repeat multiplying what it
 * repeats (`(?:\w{100}){10}` is 1,000), alternatives added up. One pass over the text; the
 * count stops as soon as it is over `bound` (then some number over it is returned), so
 * nested repeats cannot overflow it.
 *
 * @example
 * ```ts
 * regExpSize('^[a-z]{1,64}$', 1000); // 66
 * regExpSize('(?:\\w{1000}){1000}', 1000); // over 1000
 * ```
 */
export function regExpSize(pattern: string, bound: number): number {
  const frames: Frame[] = [{ total: 0, last: 0 }];
  const atom = (size: number): void => {
    const top = frames.at(-1)!;
    top.total += size;
    top.last = size;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const top = frames.at(-1)!;
    if (c === '\\') {
      i = escapeEnd(pattern, i);
      atom(1);
    } else if (c === '[') {
      i = classEnd(pattern, i);
      atom(1);
    } else if (c === '(') {
      frames.push({ total: 0, last: 0 });
      i = groupStart(pattern, i);
    } else if (c === ')' && frames.length > 1) {
      frames.pop();
      atom(top.total);
    } else if (c === '|') {
      top.last = 0;
    } else if (c === '{') {
      const repeat = countedRepeat(pattern, i);
      if (repeat === undefined) atom(1);
      else {
        top.total += top.last * (repeat.copies - 1);
        top.last *= repeat.copies;
        i = repeat.end;
      }
    } else if (c !== '*' && c !== '+' && c !== '?') {
      atom(1);
    }
    // Sizes only grow (no repeat counts under one copy), so one frame over the bound is enough.
    if (frames.at(-1)!.total > bound) return frames.at(-1)!.total;
  }
  // An unclosed group (RE2 refuses it anyway) counts with the rest.
  return frames.reduce((sum, frame) => sum + frame.total, 0);
}
