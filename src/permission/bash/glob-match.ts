/**
 * Glob segments matched against names without regular expressions: the one matcher of the
 * permission layer's globs (written targets on disk, files other programs run).
 *
 * @module
 */
import { foldCase } from '../fold-case.js';

/**
 * The most parts a glob segment is read in: matching is at worst the name's length times
 * this, for each name listed. A longer one (no real glob is) matches any name: more is
 * followed, never less.
 */
const MAX_TOKENS = 128;

/** One part of a glob segment: any text, any one character, a character, or a class of them. */
type Token = { readonly kind: 'any' } | { readonly kind: 'one' } | { readonly kind: 'char'; readonly c: string } | { readonly kind: 'class'; readonly test: (c: string) => boolean };

/** A test of names against one glob segment. */
export interface GlobMatcher {
  test(name: string): boolean;
}

/** How a segment is read. */
export interface GlobOptions {
  /** Parts known only when the line runs (`$x`, `$(...)`, `` `...` ``, `{a,b}`, `…`) match any text. */
  readonly runTime?: boolean;
  /** Letters match in any case, folded as a file system that ignores case folds them (`ſ` is `s`: see `foldCase`). */
  readonly caseless?: boolean;
}

/**
 * A matcher of names against the glob `segment` as bash reads one path segment: `*` any text,
 * `?` one character, `[...]` a class (`!`/`^` negate), `\\` quotes the next character. The
 * model writes the glob, so it is never made a regular expression (`^.*.*…Z$` backtracks
 * exponentially: fourteen stars held a decision 20 s on a 24-character name); a greedy
 * wildcard walk costs at most the name's length times the glob's parts. A segment of more
 * than 128 parts (no real glob has them) matches any name: more is judged, never less.
 *
 * @example
 * ```ts
 * globMatcher('.gi?', {}).test('.git'); // true
 * globMatcher('front*', { runTime: true }).test('frontend'); // true
 * ```
 */
export function globMatcher(segment: string, options: GlobOptions = {}): GlobMatcher {
  const caseless = options.caseless === true;
  const tokens = tokensOf(caseless ? foldCase(segment) : segment, options.runTime === true, caseless);
  if (tokens === undefined) return { test: () => true };
  return { test: (name) => globMatches(tokens, Array.from(caseless ? foldCase(name) : name)) };
}

/** The segment's tokens (runs of `any` made one), or `undefined` past {@link MAX_TOKENS}. */
function tokensOf(segment: string, runTime: boolean, caseless: boolean): Token[] | undefined {
  const tokens: Token[] = [];
  const push = (token: Token): void => {
    if (token.kind === 'any' && tokens.at(-1)?.kind === 'any') return;
    tokens.push(token);
  };
  const chars = Array.from(segment);
  for (let i = 0; i < chars.length && tokens.length <= MAX_TOKENS; i++) {
    const c = chars[i]!;
    if (c === '\\' && i + 1 < chars.length) push({ kind: 'char', c: chars[++i]! });
    else if (c === '*' || (runTime && (c === '$' || c === '…' || c === '`' || c === '{'))) {
      push({ kind: 'any' });
      // A substitution or a list stands for any text: skip its own text.
      if (c === '{' || (c === '$' && chars[i + 1] === '{')) i = closing(chars, i, '{', '}');
      else if (c === '$' && chars[i + 1] === '(') i = closing(chars, i, '(', ')');
      else if (c === '$') while (i + 1 < chars.length && /[A-Za-z0-9_@#?!*-]/.test(chars[i + 1]!)) i++;
      else if (c === '`') i = Math.max(i, chars.indexOf('`', i + 1));
    } else if (c === '?') push({ kind: 'one' });
    else if (c === '[' && chars.indexOf(']', i + 2) > 0) {
      const end = chars.indexOf(']', i + 2);
      push({ kind: 'class', test: classTest(chars.slice(i + 1, end).join(''), caseless) });
      i = end;
    } else push({ kind: 'char', c });
  }
  return tokens.length > MAX_TOKENS ? undefined : tokens;
}

/** A test of one character against a bracket's body (`!a-z`, `^.`); one it cannot read matches any. */
function classTest(body: string, caseless: boolean): (c: string) => boolean {
  const source = body.replace(/^[!^]/, '^').replace(/[\\\]]/g, (x) => `\\${x}`);
  try {
    // One character against one class: no backtracking to speak of.
    const re = new RegExp(`^[${source}]$`, caseless ? 'sui' : 'su');
    return (c) => re.test(c);
  } catch {
    return () => true;
  }
}

/**
 * Whether `name` (its characters) matches `tokens`: the greedy wildcard walk that goes back
 * only to the last `any`, so its time is at most the name's length times the tokens' (a
 * regular expression of the glob, `^.*.*.*…Z$`, took 20 s for 14 stars on one name).
 */
function globMatches(tokens: readonly Token[], name: readonly string[]): boolean {
  let t = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    const token = tokens[t];
    if (token !== undefined && token.kind !== 'any' && one(token, name[n]!)) {
      t++;
      n++;
    } else if (token?.kind === 'any') {
      star = t++;
      resume = n;
    } else if (star >= 0) {
      t = star + 1;
      n = ++resume;
    } else return false;
  }
  while (tokens[t]?.kind === 'any') t++;
  return t === tokens.length;
}

function one(token: Exclude<Token, { kind: 'any' }>, c: string): boolean {
  return token.kind === 'one' || (token.kind === 'char' ? token.c === c : token.test(c));
}

/** Where the group opened at `at` closes (its last character when it does not). */
function closing(text: readonly string[], at: number, open: string, close: string): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    if (text[i] === open) depth++;
    else if (text[i] === close && --depth === 0) return i;
  }
  return text.length - 1;
}

