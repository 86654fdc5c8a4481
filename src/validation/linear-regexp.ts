import { RE2JS } from 're2js';
import { regExpSize } from './regexp-size.js';

/** What ajv tests a string with: a compiled `pattern` or `patternProperties` key. */
export interface LinearRegExp {
  test(input: string): boolean;
}

/** The `code.regExp` option of ajv: compiles each pattern of a schema it compiles. */
export interface LinearRegExpEngine {
  (pattern: string, flags: string): LinearRegExp;
  /** How standalone code would name the engine (ajv requires it; we never emit standalone code). */
  readonly code: string;
}

/** The longest pattern compiled: far longer than any pattern a schema needs (an email's is some 50 characters). */
export const MAX_PATTERN_LENGTH = 4096;

/**
 * The largest program compiled, in atoms (see `regExpSize`): `^[a-z]{1,64}$` is 66, a UUID's
 * pattern 38. Compiling one this large takes some 3 ms; each step is work at every character.
 */
export const MAX_PATTERN_SIZE = 1000;

/**
 * The most work one test may take: the program's size times the string's length. Each
 * character costs up to the size of the program (re2js builds a new state of its DFA, or
 * runs its NFA, over every live step): a 1,000-atom pattern against 20,000 characters held
 * the event loop for seconds, and 2^20 is at worst about half a second (measured). A string
 * longer than this allows fails its pattern: `^[a-z]+$` still checks 349,525 characters.
 */
export const MAX_PATTERN_WORK = 2 ** 20;

/**
 * Runs a schema's regexes on RE2 (re2js), whose matching time is linear in the input, so a
 * pattern from outside (an MCP server's schema, a user tool's JSON schema) cannot freeze the
 * process: `^(a+)+$` against 31 `a`s and a `!` blocked JavaScript's engine for 22 s. Its
 * program is bounded too (see {@link MAX_PATTERN_SIZE}), and so is the work of one test
 * ({@link MAX_PATTERN_WORK}): a string too long for its pattern's program does not match.
 *
 * A pattern RE2 cannot run (a backreference, a lookahead or lookbehind, a program over the
 * bound) is handed to `unsupported` with the reason, and the engine answers a matcher that
 * accepts every string: that keyword is not enforced, and the caller decides what to tell whom.
 *
 * @example
 * ```ts
 * const ajv = new Ajv({ code: { regExp: linearRegExpEngine((pattern, why) => skipped.push(pattern)) } });
 * ```
 */
export function linearRegExpEngine(unsupported: (pattern: string, reason: string) => void): LinearRegExpEngine {
  const engine = (pattern: string, flags: string): LinearRegExp => {
    // ajv keys its compiled patterns by `toString()`: it must differ between patterns.
    const toString = (): string => `/${pattern}/${flags}`;
    const compiled = linearRegExp(pattern);
    if (typeof compiled === 'string') {
      unsupported(pattern, compiled);
      return { test: () => true, toString: () => `unenforced${toString()}` } as LinearRegExp;
    }
    const { re, size } = compiled;
    return { test: (input) => input.length * size <= MAX_PATTERN_WORK && re.test(input), toString } as LinearRegExp;
  };
  return Object.assign(engine, { code: 'linearRegExp' });
}

/**
 * Why RE2 cannot run `pattern` (a backreference, a lookahead or lookbehind, in RE2's words;
 * or a text or program over the bounds); undefined when it can. What
 * {@link linearRegExpEngine} would tell `unsupported`, without compiling a schema.
 *
 * @example
 * ```ts
 * linearRegExpRefusal('^(?!tmp)'); // '... `(?!` ...'
 * linearRegExpRefusal('^[a-z]+$'); // undefined
 * linearRegExpRefusal('\\w{1000}\\w{1000}'); // 'it would compile to a program of over 1000 steps ...'
 * ```
 */
export function linearRegExpRefusal(pattern: string): string | undefined {
  const compiled = linearRegExp(pattern);
  return typeof compiled === 'string' ? compiled : undefined;
}

/**
 * The longest string tested against `pattern` (see {@link MAX_PATTERN_WORK}); a longer one
 * fails it unmatched. For the message that says so.
 *
 * @example
 * ```ts
 * patternLengthLimit('^[a-z]{1,64}$'); // 15887
 * ```
 */
export function patternLengthLimit(pattern: string): number {
  return Math.floor(MAX_PATTERN_WORK / Math.max(1, regExpSize(pattern, MAX_PATTERN_SIZE)));
}

/**
 * `pattern` compiled by RE2 with its size, or the reason it is not. The bounds are judged on
 * the text first: compiling is where the time and memory of a large program go.
 */
function linearRegExp(pattern: string): { readonly re: RE2JS; readonly size: number } | string {
  if (pattern.length > MAX_PATTERN_LENGTH) return `it is ${pattern.length} characters long; at most ${MAX_PATTERN_LENGTH} are compiled`;
  const size = regExpSize(pattern, MAX_PATTERN_SIZE);
  if (size > MAX_PATTERN_SIZE) {
    return `it would compile to a program of over ${MAX_PATTERN_SIZE} steps, each of them work at every character checked (a counted repeat like {n} makes n copies); use smaller counts, or maxLength for a length`;
  }
  try {
    return { re: RE2JS.compile(RE2JS.translateRegExp(pattern)), size: Math.max(1, size) };
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
