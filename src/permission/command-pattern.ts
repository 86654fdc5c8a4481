/**
 * Command patterns (`bash` rules, urls) matched as free text, in time linear in the command
 * for a given pattern. picomatch's regexes served before, and they broke both ways a rule
 * must hold: a `*` refused to cross a `..` path segment (`rm *` did not match
 * `rm -rf a/../b`, so a deny rule let it run), and a few `*` made matching a long command
 * backtrack for minutes (`*a *b *c *` against 8,000 characters the model wrote).
 *
 * @module
 */

/** One piece of a pattern: a literal character, any text (`*`), one character (`?`), or a class (`[...]`). */
export type Piece = string | typeof ANY | typeof ONE | CharClass;

/** Any text, `*`. */
export const ANY = Symbol('any');
/** Any one character, `?`. */
export const ONE = Symbol('one');

/** A character class, `[a-z]` or `[!a-z]`. */
export interface CharClass {
  readonly negated: boolean;
  /** Inclusive code-unit ranges; a single character is a range of one. */
  readonly ranges: ReadonlyArray<readonly [number, number]>;
}

/** The most alternatives braces may expand to: `{a,b}{c,d}` is 4. More is refused to picomatch's reading, see {@link compileCommandPattern}. */
const MAX_ALTERNATIVES = 256;

/** Syntax read only by picomatch: a negated pattern, an extglob group, a POSIX class. */
const PICOMATCH_ONLY = /^!|(?<!\\)[@!?*+]\(|\[\[:/;

/**
 * A matcher for a command pattern, or `undefined` when the pattern uses syntax this reader
 * leaves to picomatch (a leading `!`, extglob groups like `@(a|b)`, POSIX classes like
 * `[[:alpha:]]`, or braces expanding to more than 256 alternatives).
 *
 * The pattern is free text: `*` (and `**`) is any text, `/`, spaces and line breaks
 * included; `?` is any one character; `[abc]`, `[a-z]` and `[!a-z]` (or `[^a-z]`) one
 * character of (or not of) a class; `{a,b}` either alternative (nested, and numeric ranges
 * `{1..5}`); `\` makes the next character literal. Matching is greedy with one remembered
 * `*`, so it takes at most (command length × pattern length) steps.
 *
 * @example
 * ```ts
 * compileCommandPattern('rm *')!('rm -rf a/../b'); // true
 * compileCommandPattern('{git,hg} push*')!('hg push --force'); // true
 * compileCommandPattern('!(rm *)'); // undefined: picomatch reads it
 * ```
 */
export function compileCommandPattern(pattern: string): ((command: string) => boolean) | undefined {
  if (PICOMATCH_ONLY.test(pattern)) return undefined;
  const alternatives = expandBraces(pattern);
  if (alternatives === undefined) return undefined;
  const compiled = alternatives.map(pieces);
  return (command) => compiled.some((p) => matchPieces(p, command));
}

/**
 * The pattern as the piece lists of its brace alternatives, or `undefined` as
 * {@link compileCommandPattern} (what `pattern-overlap.ts` compares two patterns by).
 */
export function commandPatternPieces(pattern: string): Piece[][] | undefined {
  if (PICOMATCH_ONLY.test(pattern)) return undefined;
  return expandBraces(pattern)?.map(pieces);
}

/** Whether `text` fits one alternative's pieces (see {@link commandPatternPieces}), in linear time for a given pattern. */
export function matchesText(pieces: readonly Piece[], text: string): boolean {
  return matchPieces(pieces, text);
}

/** Greedy wildcard matching: on a mismatch, the last `*` takes one more character. */
function matchPieces(p: readonly Piece[], s: string): boolean {
  let pi = 0;
  let si = 0;
  let star = -1;
  let starAt = 0;
  while (si < s.length) {
    const piece = p[pi];
    if (piece === ANY) {
      star = pi++;
      starAt = si;
    } else if (piece !== undefined && matchesOne(piece, s.charCodeAt(si))) {
      pi++;
      si++;
    } else if (star !== -1) {
      pi = star + 1;
      si = ++starAt;
    } else return false;
  }
  while (p[pi] === ANY) pi++;
  return pi === p.length;
}

/** Whether one character (a code unit) fits a piece that is not `*`. */
export function matchesOne(piece: Exclude<Piece, typeof ANY>, code: number): boolean {
  if (piece === ONE) return true;
  if (typeof piece === 'string') return piece.charCodeAt(0) === code;
  const inside = piece.ranges.some(([from, to]) => code >= from && code <= to);
  return inside !== piece.negated;
}

/** A brace-free pattern as pieces. */
function pieces(pattern: string): Piece[] {
  const out: Piece[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) out.push(pattern[++i]!);
    else if (c === '*') {
      if (out.at(-1) !== ANY) out.push(ANY);
    } else if (c === '?') out.push(ONE);
    else if (c === '[') {
      const parsed = charClass(pattern, i);
      if (parsed === undefined) out.push(c);
      else {
        out.push(parsed.piece);
        i = parsed.end;
      }
    } else out.push(c);
  }
  return out;
}

/** The class opening at `start` and the index of its `]`, or `undefined` when no `]` closes it (a literal `[`). */
function charClass(pattern: string, start: number): { piece: CharClass; end: number } | undefined {
  let i = start + 1;
  const negated = pattern[i] === '!' || pattern[i] === '^';
  if (negated) i++;
  const ranges: Array<[number, number]> = [];
  for (let first = true; i < pattern.length; first = false) {
    let c = pattern[i]!;
    if (c === ']' && !first) return { piece: { negated, ranges }, end: i };
    if (c === '\\' && i + 1 < pattern.length) c = pattern[++i]!;
    if (pattern[i + 1] === '-' && i + 2 < pattern.length && pattern[i + 2] !== ']') {
      ranges.push([c.charCodeAt(0), pattern.charCodeAt(i + 2)]);
      i += 3;
    } else {
      ranges.push([c.charCodeAt(0), c.charCodeAt(0)]);
      i++;
    }
  }
  return undefined;
}

/** Every brace-free pattern `{...}` groups expand to, or `undefined` past {@link MAX_ALTERNATIVES}. */
function expandBraces(pattern: string): string[] | undefined {
  const group = firstGroup(pattern);
  if (group === undefined) return [pattern];
  const before = pattern.slice(0, group.start);
  const after = pattern.slice(group.end + 1);
  const out: string[] = [];
  for (const option of group.options) {
    const expanded = expandBraces(`${before}${option}${after}`);
    if (expanded === undefined || out.length + expanded.length > MAX_ALTERNATIVES) return undefined;
    out.push(...expanded);
  }
  return out;
}

/** The first `{...}` holding a top-level `,` or a range `a..b`: where it is and its options (escapes kept). */
function firstGroup(pattern: string): { start: number; end: number; options: string[] } | undefined {
  for (let start = 0; start < pattern.length; start++) {
    if (pattern[start] === '\\') start++;
    else if (pattern[start] === '{') {
      const found = groupAt(pattern, start);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function groupAt(pattern: string, start: number): { start: number; end: number; options: string[] } | undefined {
  let depth = 0;
  const commas: number[] = [];
  for (let i = start; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === ',' && depth === 1) commas.push(i);
    else if (c === '}' && --depth === 0) {
      const body = pattern.slice(start + 1, i);
      if (commas.length > 0) {
        const cuts = [start, ...commas, i];
        return { start, end: i, options: cuts.slice(1).map((cut, k) => pattern.slice(cuts[k]! + 1, cut)) };
      }
      const range = numericRange(body);
      return range === undefined ? undefined : { start, end: i, options: range };
    }
  }
  return undefined;
}

/** `1..5` as `['1', ..., '5']` (either way round); `undefined` for anything else or more than {@link MAX_ALTERNATIVES}. */
function numericRange(body: string): string[] | undefined {
  const m = /^(-?\d{1,9})\.\.(-?\d{1,9})$/.exec(body);
  if (!m) return undefined;
  const from = Number(m[1]);
  const to = Number(m[2]);
  if (Math.abs(to - from) >= MAX_ALTERNATIVES) return undefined;
  const step = from <= to ? 1 : -1;
  const out: string[] = [];
  for (let n = from; n !== to + step; n += step) out.push(String(n));
  return out;
}
