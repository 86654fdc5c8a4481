import { RE2JS } from 're2js';

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

/**
 * Runs a schema's regexes on RE2 (re2js), whose matching time is linear in the input, so a
 * pattern from outside (an MCP server's schema, a user tool's JSON schema) cannot freeze the
 * process: `^(a+)+$` against 31 `a`s and a `!` blocked JavaScript's engine for 22 s.
 *
 * A pattern RE2 cannot run (a backreference, a lookahead or lookbehind) is handed to
 * `unsupported` with RE2's reason, and the engine answers a matcher that accepts every
 * string: that keyword is not enforced, and the caller decides what to tell whom.
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
    const re = linearRegExp(pattern);
    if (typeof re === 'string') {
      unsupported(pattern, re);
      return { test: () => true, toString: () => `unenforced${toString()}` } as LinearRegExp;
    }
    return { test: (input) => re.test(input), toString } as LinearRegExp;
  };
  return Object.assign(engine, { code: 'linearRegExp' });
}

/**
 * Why RE2 cannot run `pattern` (a backreference, a lookahead or lookbehind), in RE2's words;
 * undefined when it can. What {@link linearRegExpEngine} would tell `unsupported`, without
 * compiling a schema.
 *
 * @example
 * ```ts
 * linearRegExpRefusal('^(?!tmp)'); // '... `(?!` ...'
 * linearRegExpRefusal('^[a-z]+$'); // undefined
 * ```
 */
export function linearRegExpRefusal(pattern: string): string | undefined {
  const re = linearRegExp(pattern);
  return typeof re === 'string' ? re : undefined;
}

/** `pattern` compiled by RE2, or RE2's reason it cannot be. */
function linearRegExp(pattern: string): RE2JS | string {
  try {
    return RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
