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
    let re: RE2JS;
    try {
      re = RE2JS.compile(RE2JS.translateRegExp(pattern));
    } catch (e) {
      unsupported(pattern, e instanceof Error ? e.message : String(e));
      return { test: () => true, toString: () => `unenforced${toString()}` } as LinearRegExp;
    }
    return { test: (input) => re.test(input), toString } as LinearRegExp;
  };
  return Object.assign(engine, { code: 'linearRegExp' });
}
