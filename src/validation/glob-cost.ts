/**
 * What a glob costs to match, judged before any walk. picomatch turns a glob into a
 * backtracking regex, run on the main thread against every path a search walks, and a regex
 * cannot be stopped (not even by the tool's timeout). Beyond `*` and extglobs it passes regex
 * syntax through: `(a+)+` stays a group repeated by `+`, `[a-z]+` a repeated class, `{a,aa}`
 * an alternation. Against an ordinary 36-character file name, `([a-z.-]+)+Z` under `**` would
 * run for hours, and `{?,??}` 30 times over about as long.
 *
 * @module
 */

/**
 * Wildcards of variable width a glob may hold in one path segment and in all: a run of `*`
 * (`**` is one), an extglob group (`*(a)`, `+(a)`, `@(a|b)`...), a `+` that picomatch keeps
 * as a quantifier (after a `[...]` class or inside a group). `?` and `[...]` match one
 * character and cost nothing. `*a*a*b` against a 255-character name takes ~60 ms,
 * `*a*a*a*b` ~2 s, each more `*` ~50 times longer; two per segment and four in all keep the
 * worst name measured (255 characters, or paths 15 folders of 255 characters deep) at
 * ~16 ms, and allow the usual `**` + `*.ts` shapes (`src/**` + `/*.test.ts`,
 * `**` + `/test/**` + `/*.spec.*`).
 */
const MAX_WILDCARDS_PER_SEGMENT = 2;
const MAX_WILDCARDS = 4;

/**
 * The alternatives a glob's `{a,b}` and `@(a|b)` groups multiply to (`{src,test}/*.{ts,js}`
 * is 4): each is a branch the regex may try at every position, so they multiply the cost of
 * its wildcards. 32 allows `{src,test,lib,bench}/**` + `/*.{ts,tsx,js,jsx,mjs,cjs}` (24).
 */
const MAX_ALTERNATIVES = 32;

/** The longest glob read: a path pattern is far shorter, and picomatch refuses 65,536 characters anyway. */
const MAX_GLOB_LENGTH = 4096;

/** Characters that open an extglob group when a `(` follows; `*` and `+` repeat it. */
const EXTGLOB = '@!?*+';

/** An open `{...}` or extglob group: the alternatives counted so far, and those of the current one. */
interface Frame {
  readonly kind: 'brace' | 'group';
  readonly repeating: boolean;
  /** Where the group's content starts (after `(` or `{`). */
  readonly start: number;
  closed: number;
  current: number;
}

/**
 * Why matching `glob` could freeze the process, as an error message starting with `label`
 * (the argument's name, `pattern` or `include`) and ending with `advice` (by default, what a
 * search's caller can do instead); `undefined` when it is cheap.
 *
 * @example
 * ```ts
 * globCostProblem('src/**' + '/*.{ts,tsx}', 'pattern'); // undefined
 * globCostProblem('**' + '/([a-z]+)+Z', 'pattern'); // 'pattern "..." has a "(" that opens no @(...) ...'
 * ```
 */
export function globCostProblem(glob: string, label: string, advice: string = SEARCH_ADVICE): string | undefined {
  if (glob.length > MAX_GLOB_LENGTH) return `${label} is ${glob.length} characters long; at most ${MAX_GLOB_LENGTH}. ${advice}`;
  const counts = [0];
  const frames: Frame[] = [];
  let groups = 0; // open extglob groups
  let repeating = 0; // open *(...) and +(...) groups
  let alternatives = 1;
  const wildcard = (): void => void (counts[counts.length - 1]! += 1);
  const repeatsGroup = (at: number): boolean => glob[at + 1] === '+' && glob[at + 2] !== '(';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    const top = frames.at(-1);
    if (c === '\\') i++;
    else if (c === '/') counts.push(0);
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) continue; // a lone `[` is literal
      i = close;
      if (repeatsGroup(i)) {
        wildcard(); // `[a-z]+`: a repeated class
        i++;
      }
    } else if (c === '*') {
      while (glob[i + 1] === '*') i++;
      if (glob[i + 1] !== '(') wildcard(); // `*(` is counted as the group it opens
    } else if (c === '+' && glob[i + 1] !== '(') {
      if (groups > 0) wildcard(); // a quantifier inside a group: `@(a+)`
    } else if (c === '(') {
      if (!EXTGLOB.includes(glob[i - 1] ?? '') || glob[i - 2] === '\\') return bareGroup(glob, label);
      if (repeating > 0) return repeatedWildcards(glob, label, advice);
      wildcard();
      const repeats = glob[i - 1] === '*' || glob[i - 1] === '+';
      frames.push({ kind: 'group', repeating: repeats, start: i + 1, closed: 0, current: 1 });
      groups++;
      if (repeats) repeating++;
    } else if ((c === '|' && top?.kind === 'group') || (c === ',' && top?.kind === 'brace')) {
      top.closed += top.current;
      top.current = 1;
    } else if (c === '{') {
      frames.push({ kind: 'brace', repeating: false, start: i + 1, closed: 0, current: 1 });
    } else if ((c === ')' && top?.kind === 'group') || (c === '}' && top?.kind === 'brace')) {
      frames.pop();
      if (top.kind === 'group') groups--;
      if (top.repeating) {
        repeating--;
        if (!plainRepeat(glob.slice(top.start, i))) return repeatedWildcards(glob, label, advice);
      }
      if (repeatsGroup(i)) return repeatedGroup(glob, label, advice);
      const parent = frames.at(-1);
      if (parent) parent.current *= top.closed + top.current;
      else alternatives *= top.closed + top.current;
    }
  }
  for (const open of frames) alternatives *= open.closed + open.current; // unclosed: counted all the same
  if (counts.some((n) => n > MAX_WILDCARDS_PER_SEGMENT) || counts.reduce((sum, n) => sum + n, 0) > MAX_WILDCARDS) return tooManyWildcards(glob, label, advice);
  if (alternatives > MAX_ALTERNATIVES) return tooManyAlternatives(glob, label, alternatives, advice);
  return undefined;
}

/**
 * Whether the content of a `*(...)` or `+(...)` group repeats in one way only: plain text,
 * `?` and classes (a fixed width), or alternatives of plain text none of which starts
 * another (`src|test`; `a|aa` could split a name in exponentially many ways).
 */
function plainRepeat(content: string): boolean {
  if (/[*+{(\\]/.test(content)) return false;
  const options = content.split('|');
  if (options.length === 1) return true;
  if (options.some((option) => /[?[\]]/.test(option))) return false;
  return options.every((a, i) => options.every((b, j) => i === j || !b.startsWith(a)));
}

/** What a search's caller can do instead of a costly glob. */
export const SEARCH_ADVICE = 'Use a simpler glob (e.g. "**/*name*") and narrow the results with "path" or grep.';

function tooManyWildcards(glob: string, label: string, advice: string): string {
  return (
    `${label} "${glob}" has too many wildcards: at most ${MAX_WILDCARDS_PER_SEGMENT} "*" (or "**", "*(...)") between two "/" ` +
    `and ${MAX_WILDCARDS} in all, since matching more against long file names can take minutes. ${advice}`
  );
}

function bareGroup(glob: string, label: string): string {
  return (
    `${label} "${glob}" has a "(" that opens no @(...), !(...), ?(...), *(...) or +(...) group; the glob matcher would run it ` +
    'as a regular-expression group, which can take hours against long file names. To match a parenthesis, write [(] or [)].'
  );
}

function repeatedGroup(glob: string, label: string, advice: string): string {
  return `${label} "${glob}" repeats a group with "+" after ")" or "}", which can take hours to match against long file names. ${advice}`;
}

function repeatedWildcards(glob: string, label: string, advice: string): string {
  return (
    `${label} "${glob}" repeats wildcards, groups or alternatives that overlap (like "a|aa") inside *(...) or +(...), which can ` +
    `take hours to match against long file names; put only plain text, "?" or [...] in them. ${advice}`
  );
}

function tooManyAlternatives(glob: string, label: string, count: number, advice: string): string {
  return (
    `${label} "${glob}" has ${count} alternatives in its {...} and @(...) groups taken together; at most ${MAX_ALTERNATIVES}, ` +
    `since each is tried at every position of every file name. ${advice}`
  );
}
