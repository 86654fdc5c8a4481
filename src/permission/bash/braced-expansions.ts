/**
 * Braced expansions (`${x}`) as the line wrote them, for the text rules match and reasons quote:
 * which stand in double quotes, and what the parser's text (which drops their braces) is.
 * The first pass (`shell-scan`) escapes a bare `#` inside a word (`${#x}` becomes `${\#x}`) so
 * the parser reads no comment there, and leaves a typed `\#` as it is: outside quotes the two
 * read alike, so a `\#` is shown as the line's `#`. Inside double quotes that pass changes
 * nothing: a `\#` there is one the line wrote (`"${x/\#/y}"`, whose pattern is a `#` and not
 * the start), and is shown so.
 *
 * @module
 */

/**
 * `statement` with `braced` put after each `${`, and `quoted` after that in each braced
 * expansion standing in double quotes (an expansion inside another is the outer one's text).
 * Quotes and expansions are read as the parser (`shell-quote`) reads them: a backslash outside
 * single quotes takes the next character, and an expansion ends at the `}` that closes it, a
 * `${` inside it opening one more, whatever quotes stand between.
 *
 * @example
 * ```ts
 * markBraces('a "${x}" ${y}', '\u0003', '\u0004'); // 'a "${\u0003\u0004x}" ${\u0003y}'
 * ```
 */
export function markBraces(statement: string, braced: string, quoted: string): string {
  let out = '';
  let from = 0;
  let quote = '';
  for (let i = 0; i < statement.length; i += 1) {
    const c = statement[i];
    if (quote === "'") {
      if (c === "'") quote = '';
    } else if (c === '\\') {
      i += 1;
    } else if (c === "'" && quote === '') {
      quote = c;
    } else if (c === '"') {
      quote = quote === '"' ? '' : '"';
    } else if (c === '$' && statement[i + 1] === '{') {
      // unclosed (the parser refuses the statement): the rest is its text, each `${` in it marked
      const end = expansionEnd(statement, i + 2) ?? statement.length;
      out += `${statement.slice(from, i + 2)}${braced}${quote === '"' ? quoted : ''}${statement.slice(i + 2, end).replaceAll('${', `\${${braced}`)}`;
      from = end;
      i = end - 1;
    }
  }
  return out + statement.slice(from);
}

/**
 * `shown` (a word's text with its expansions as written) as the parser's text has it: each
 * expansion's outer braces dropped (`${x:-${y}}z` is `$x:-${y}z`), the expansion found as the
 * parser finds it (see `markBraces`); `$$`, `$#`... are two characters, so a `{` after them
 * opens nothing.
 *
 * @example
 * ```ts
 * unbraced('${x:-${y}}z'); // '$x:-${y}z'
 * ```
 */
export function unbraced(shown: string): string {
  let out = '';
  let i = 0;
  while (i < shown.length) {
    const dollar = shown.indexOf('$', i);
    if (dollar < 0) break;
    out += shown.slice(i, dollar);
    if (shown[dollar + 1] !== '{') {
      // a special parameter's character is its name: no `{` right after it opens an expansion
      const step = /[*@#?$!-]/.test(shown[dollar + 1] ?? '') ? 2 : 1;
      out += shown.slice(dollar, dollar + step);
      i = dollar + step;
      continue;
    }
    const end = expansionEnd(shown, dollar + 2);
    // unclosed: no expansion the parser read (it refuses the statement), kept as it is, which then differs from the text
    if (end === undefined) return out + shown.slice(dollar);
    out += `$${shown.slice(dollar + 2, end - 1)}`;
    i = end;
  }
  return out + shown.slice(i);
}

/** Where the braced expansion whose name starts at `start` ends (after its `}`); `undefined` when no `}` closes it. */
function expansionEnd(text: string, start: number): number | undefined {
  let depth = 1;
  let at = start;
  for (; at < text.length && depth > 0; at += 1) depth += text[at] === '}' ? -1 : text[at] === '{' && text[at - 1] === '$' ? 1 : 0;
  return depth === 0 ? at : undefined;
}
