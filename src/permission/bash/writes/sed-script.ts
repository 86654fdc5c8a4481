/**
 * sed's script read as sed reads it, command by command, for the files its `w` / `W`
 * commands and `s///w` flags write and whether it runs commands (GNU sed's `e` command and
 * `s///e` flag): a `w` or `e` in an address, a regular expression, a replacement, appended
 * text or a label is none.
 *
 * @module
 */

/** Commands followed by text to the end of the line (`a text`, `r file`, `e cmd`...): none of it is a command. */
const TEXT_TO_EOL = new Set(['a', 'i', 'c', 'r', 'R', 'e', '#']);
/** Commands followed by a label to `;` or the end of the line. */
const LABELLED = new Set([':', 'b', 't', 'T']);
/** Commands that take nothing, or a number (`q5`, `l 40`). */
const SIMPLE = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'l', 'L', 'n', 'N', 'p', 'P', 'q', 'Q', 'x', 'z', 'F', 'v', 'u']);

/** What a sed script does beyond its output (see {@link readScript}). */
export interface SedScript {
  /** The files its `w` / `W` commands and `s///w` flags name. */
  readonly files: string[];
  /** Whether it runs commands: an `e` command (`1e rm f`; a bare `e` runs the line read) or an `s///e` flag. */
  readonly runs: boolean;
}

/**
 * What a sed script writes and whether it runs commands, or `undefined` when it holds
 * something this reading does not know (then it may write anything).
 *
 * @example
 * ```ts
 * readScript('s/a/b/w out'); // { files: ['out'], runs: false }
 * readScript('s/x/date/e'); // { files: [], runs: true }
 * readScript('/throw/p'); // { files: [], runs: false }
 * ```
 */
export function readScript(script: string): SedScript | undefined {
  const out: string[] = [];
  let runs = false;
  let i = 0;
  const toEol = (): string => {
    const end = script.indexOf('\n', i);
    const text = script.slice(i, end < 0 ? script.length : end);
    i = end < 0 ? script.length : end + 1;
    return text;
  };
  /** Skips a delimited part (a regex or replacement) ending at an unescaped `delim`; false when unterminated (sed refuses a bare line break in one). */
  const skipDelimited = (delim: string): boolean => {
    for (; i < script.length && script[i] !== '\n'; i += 1) {
      if (script[i] === '\\') i += 1;
      else if (script[i] === delim) {
        i += 1;
        return true;
      }
    }
    return false;
  };
  const skipAddress = (): boolean => {
    const c = script[i];
    // A regular expression may carry GNU's `I` and `M` modifiers (`/x/I d`).
    const modifiers = (ok: boolean): boolean => {
      while (ok && (script[i] === 'I' || script[i] === 'M')) i += 1;
      return ok;
    };
    if (c === '/') return (i += 1), modifiers(skipDelimited('/'));
    if (c === '\\') return (i += 2), modifiers(script[i - 1] !== undefined && skipDelimited(script[i - 1]!));
    if (c === '$') return (i += 1), true;
    const number = /^[0-9]+(?:~[0-9]+)?/.exec(script.slice(i, i + 40));
    if (number !== null) i += number[0].length;
    return true;
  };
  while (i < script.length) {
    const c = script[i]!;
    if (/[\s;{}]/.test(c)) {
      i += 1;
      continue;
    }
    if (!skipAddress()) return undefined;
    if (script[i] === ',') {
      i += 1;
      if (script[i] === '+' || script[i] === '~') i += 1;
      if (!skipAddress()) return undefined;
    }
    while (script[i] === ' ' || script[i] === '\t' || script[i] === '!') i += 1;
    const command = script[i];
    if (command === undefined) break;
    i += 1;
    if (command === '{' || command === '}' || command === ';' || command === '\n') continue;
    if (command === 'w' || command === 'W') out.push(toEol().trim());
    else if (TEXT_TO_EOL.has(command)) {
      if (command === 'e') runs = true;
      // `a\`, `i\`, `c\`: the text goes on over each line ending in a backslash.
      for (let line = toEol(); /(?:^|[^\\])(?:\\\\)*\\$/.test(line) && 'aic'.includes(command) && i < script.length; line = toEol());
    }
    else if (LABELLED.has(command)) while (i < script.length && script[i] !== ';' && script[i] !== '\n') i += 1;
    else if (command === 's' || command === 'y') {
      const delim = script[i];
      if (delim === undefined || delim === '\n' || delim === '\\') return undefined;
      i += 1;
      if (!skipDelimited(delim) || !skipDelimited(delim)) return undefined;
      if (command === 's') {
        const flags = /^[gpiImMe0-9]*/.exec(script.slice(i))![0];
        i += flags.length;
        if (flags.includes('e')) runs = true;
        if (script[i] === 'w') {
          i += 1;
          out.push(toEol().trim());
        }
      }
    } else if (SIMPLE.has(command)) while (/[0-9 \t]/.test(script[i] ?? '')) i += 1;
    else return undefined;
  }
  return { files: out, runs };
}
