/**
 * The existing paths a written word that is not plain text may name, so the links among them
 * are followed: a glob (`front*` / `[f]rontend` / `note?.md`) is matched against the names on
 * disk, as bash expands it; a part known only when the line runs (`$x`, `$(…)`, `{a,b}`, `~+`)
 * matches any name there, and when it may hold a whole path (`$PWD/frontend/a.ts`) what
 * follows it is also read from the workspace and from each folder named after it. The listing
 * counts against the walker's bound; past it the answer is `undefined` (judged as any path).
 *
 * @module
 */
import { posix } from 'node:path';
import type { LinkWalker } from './link-walker.js';

/** A part known only when the line runs: a substitution (the scanner writes `$(…)`), a brace list, a backquote. */
const RUN_TIME = /\$|…|`|\{[^{}]*(?:,|\.\.)[^{}]*\}/;
/** Matches kept per word: a glob naming more paths than this is judged as any path. */
const MAX_MATCHES = 256;

/**
 * Paths (relative to the workspace, or absolute) `written` may name now, or `undefined` when
 * they cannot all be listed within the bounds.
 *
 * @example
 * ```ts
 * // with frontend -> src in the workspace
 * globbedPaths('front*' + '/a.ts', walker); // ['frontend/a.ts']
 * globbedPaths('$PWD/frontend/a.ts', walker); // ['frontend/a.ts', ...]
 * ```
 */
export function globbedPaths(written: string, walker: LinkWalker): string[] | undefined {
  const segments = written.split('/');
  const absolute = written.startsWith('/');
  const last = lastIndex(segments, (s, i) => RUN_TIME.test(s) || (i === 0 && s.startsWith('~')));
  const starts = [{ at: 0, absolute }];
  // A part that may hold `/` (`$PWD`, `$(pwd)`): what follows may start anywhere, the workspace too.
  if (last >= 0) for (let at = last; at < segments.length; at++) starts.push({ at, absolute: false });
  const found = new Set<string>();
  for (const start of starts) {
    const rest = segments.slice(start.at).filter((s) => s !== '' && s !== '.');
    const matches = expand(start.absolute ? '/' : '', rest, walker);
    if (matches === undefined) return undefined;
    for (const match of matches) found.add(match);
    if (found.size > MAX_MATCHES) return undefined;
  }
  return [...found];
}

/**
 * Every path below `base` the names `rest` (globs among them) match now, that may pass a link:
 * a plain file or folder reached without one is where the text shows it, judged so already.
 */
function expand(base: string, rest: readonly string[], walker: LinkWalker): string[] | undefined {
  let paths = [{ path: base, linked: false }];
  for (const [i, segment] of rest.entries()) {
    const pattern = segmentPattern(segment, i === 0 && base === '');
    const more = i < rest.length - 1;
    const next: { path: string; linked: boolean }[] = [];
    for (const { path, linked } of paths) {
      const join = (name: string): string => (path === '' ? name : posix.join(path, name));
      if (pattern === undefined) {
        // A literal name may be a link too: the walker looks at it (a name not there yet is none).
        const found = linked ? undefined : walker.resolve(join(segment));
        next.push({ path: join(segment), linked: linked || found?.kind !== 'real' || found.linked });
        continue;
      }
      const names = walker.list(path === '' ? walker.workspace : posix.resolve(walker.workspace, path));
      if (names === undefined) return undefined;
      for (const entry of names) {
        if (!pattern.test(entry.name) || !(linked || entry.link || (more && entry.dir))) continue;
        next.push({ path: join(entry.name), linked: linked || entry.link });
      }
      if (next.length > MAX_MATCHES) return undefined;
    }
    paths = next;
  }
  return paths.map((p) => p.path).filter((path) => path !== '' && path !== '/');
}

/**
 * The most parts a glob segment is read in: matching is at worst the name's length times
 * this, for each name listed. A longer one (no real glob is) matches any name: more is
 * followed, never less.
 */
const MAX_TOKENS = 128;

/** One part of a glob segment: any text, any one character, a character, or a class of them. */
type Token = { readonly kind: 'any' } | { readonly kind: 'one' } | { readonly kind: 'char'; readonly c: string } | { readonly kind: 'class'; readonly test: (c: string) => boolean };

/** A matcher of one name against a segment (a glob), or `undefined` when it is plain text. */
function segmentPattern(segment: string, first: boolean): { test(name: string): boolean } | undefined {
  if (first && segment.startsWith('~')) return { test: () => true };
  if (!/[*?[\\]/.test(segment) && !RUN_TIME.test(segment)) return undefined;
  const tokens = tokensOf(segment);
  if (tokens === undefined) return { test: () => true };
  return { test: (name) => globMatches(tokens, Array.from(name)) };
}

/** The segment's tokens (runs of `any` made one), or `undefined` past {@link MAX_TOKENS}. */
function tokensOf(segment: string): Token[] | undefined {
  const tokens: Token[] = [];
  const push = (token: Token): void => {
    if (token.kind === 'any' && tokens.at(-1)?.kind === 'any') return;
    tokens.push(token);
  };
  const chars = Array.from(segment);
  for (let i = 0; i < chars.length && tokens.length <= MAX_TOKENS; i++) {
    const c = chars[i]!;
    if (c === '\\' && i + 1 < chars.length) push({ kind: 'char', c: chars[++i]! });
    else if (c === '*' || c === '$' || c === '…' || c === '`' || c === '{') {
      push({ kind: 'any' });
      // A substitution or a list stands for any text: skip its own text.
      if (c === '{' || (c === '$' && chars[i + 1] === '{')) i = closing(chars, i, '{', '}');
      else if (c === '$' && chars[i + 1] === '(') i = closing(chars, i, '(', ')');
      else if (c === '$') while (i + 1 < chars.length && /[A-Za-z0-9_@#?!*-]/.test(chars[i + 1]!)) i++;
      else if (c === '`') i = Math.max(i, chars.indexOf('`', i + 1));
    } else if (c === '?') push({ kind: 'one' });
    else if (c === '[' && chars.indexOf(']', i + 2) > 0) {
      const end = chars.indexOf(']', i + 2);
      push({ kind: 'class', test: classTest(chars.slice(i + 1, end).join('')) });
      i = end;
    } else push({ kind: 'char', c });
  }
  return tokens.length > MAX_TOKENS ? undefined : tokens;
}

/** A test of one character against a bracket's body (`!a-z`, `^.`); one it cannot read matches any. */
function classTest(body: string): (c: string) => boolean {
  const source = body.replace(/^[!^]/, '^').replace(/[\\\]]/g, (x) => `\\${x}`);
  try {
    // One character against one class: no backtracking to speak of.
    const re = new RegExp(`^[${source}]$`, 'su');
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

function lastIndex(segments: readonly string[], test: (segment: string, index: number) => boolean): number {
  for (let i = segments.length - 1; i >= 0; i--) if (test(segments[i]!, i)) return i;
  return -1;
}
