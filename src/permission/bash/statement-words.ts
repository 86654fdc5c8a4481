/**
 * Reading one statement of a command line into its simple commands' words, each then read
 * by `analyseWords` (`simple-command`): the shell parser's entries, with what it does not mark
 * found by parsing again (quoted braces and expansions, `$`s quoted as text) and compound
 * assignments read as their elements.
 *
 * @module
 */
import { parse, type ParseEntry } from 'shell-quote';
import { buildsValueByExpansion } from './code-in-data.js';
import { arrayElements } from './compound-assignment.js';
import type { PartRole, PartSink } from './part-sink.js';
import { PLACEHOLDER } from './shell-scan.js';
import type { TextWord, Word } from './shell-words.js';
import { OPTION_VARIABLE } from './runs/option-variables.js';
import { markBraces } from './braced-expansions.js';
import { analyseWords } from './simple-command.js';

// What separates simple commands; every other operator shell-quote returns is a redirection.
const CONTROL = new Set([';', '&', '&&', '||', '|', '|&', ';;', ';&', ';;&', '(', ')']);

/**
 * Splits one statement (no line breaks outside quotes, see `scanShellLine`) into simple
 * commands with `shell-quote` and records each: its text as written (quotes removed,
 * whitespace collapsed) in `role`, and as variants its plain form (assignments and
 * redirections dropped, the binary's folder removed) and the commands it wraps.
 */
export function analyseStatement(statement: string, role: PartRole, depth: number, sink: PartSink): void {
  let entries: ParseEntry[];
  try {
    // A variable stays `$NAME`, so a command name held in one is seen as such.
    entries = parse<string>(statement, (key) => `$${key}`);
  } catch {
    sink.flag('a statement the shell parser cannot read');
    return;
  }
  const built = buildsValueByExpansion(statement);
  if (built !== undefined) sink.note('carries', built);
  const { literal, shown } = dollarReading(statement, entries.length) ?? {};
  const patterns = unquotedAt(statement, /(?<!\$)[{[]/g, entries.length);
  const split = unquotedAt(statement, /\$/g, entries.length);
  const named = namesOnly(statement, entries.length);
  let words: Word[] = [];
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i]!;
    const elements = typeof entry !== 'string' && 'op' in entry && entry.op === '(' && !compoundOption(words[words.length - 1]) ? arrayElements(words[words.length - 1], entries, i) : undefined;
    if (elements !== undefined) {
      // `m=([a]=1 [b]=2)`: each element is an assignment (`m[a]=1`), no command.
      words.pop();
      words.push(...elements.words);
      i = elements.next - 1;
    } else if (typeof entry === 'string') words.push(stringWord(entry, literal?.[i] === true, patterns?.[i] ?? PATTERN.test(entry), (split?.[i] ?? true) || named?.[i] !== true, shown?.[i]));
    else if ('comment' in entry) sink.line(entry.comment, role, depth + 1); // never expected: judge it rather than lose it
    else if (entry.op === 'glob') words.push({ kind: 'word', text: entry.pattern, glob: true });
    else if (entry.op === '(' && compoundOption(words[words.length - 1])) {
      // `LESS=('+!rm y')` sets an array, whose elements the inherited `$LESS` then reads: options the rules cannot follow.
      const last = words.pop() as TextWord;
      words.push({ ...last, text: `${last.text}${PLACEHOLDER}` });
      analyseWords(words, role, depth, sink, true);
      words = [];
    } else if (CONTROL.has(entry.op)) {
      analyseWords(words, role, depth, sink, true);
      words = [];
    } else words.push({ kind: 'redirect', op: entry.op });
  }
  analyseWords(words, role, depth, sink, true);
}

/** Whether `word` starts a compound assignment of an option variable (`LESS=(`, `MORE+=(`), before its `(`. */
function compoundOption(word: Word | undefined): word is TextWord {
  const name = word?.kind === 'word' && !word.glob ? /^([A-Za-z_]\w*)\+?=$/.exec(word.text)?.[1] : undefined;
  return name !== undefined && name in OPTION_VARIABLE;
}

/** A mark no command line holds: where the parser expanded a variable. */
const EXPANDED = '\u0001';

/** A class or brace expansion in a word's text, as `isDynamic` reads it. */
const PATTERN = /\[[^\]]+\]|\{[^{}]*(?:,|\.\.)[^{}]*\}/;

/**
 * A string entry as a word: `literal` (its `$`s are quoted text), `unquoted` (a `{` or `[` of it
 * stands unquoted), `splits` (an expansion of it stands unquoted, or is more than a variable's
 * value: `"$@"`, `"${x/a/-delete}"`), `shown` (its expansions as written, see `writtenAs`). The
 * parser marks neither quoted braces nor quoted expansions, so `unquotedAt` and `namesOnly` find them.
 */
function stringWord(entry: string, literal: boolean, unquoted: boolean, splits: boolean, shown: string | undefined): TextWord {
  const expands = entry.includes('$');
  return {
    kind: 'word',
    text: entry,
    glob: false,
    ...(shown !== undefined && shown !== entry ? { shown } : {}),
    ...(literal && expands ? { literal: true } : {}),
    ...(unquoted && PATTERN.test(entry) ? { pattern: true } : {}),
    ...(!splits && expands && !literal && !entry.includes(PLACEHOLDER) ? { quoted: true } : {}),
  };
}

/**
 * For each entry, whether a character `chars` matches stands unquoted in it: the statement is
 * parsed again with a `?` before each, which the parser marks as a glob only where unquoted;
 * `undefined` when none is there or the entries differ (then the caller assumes the worst).
 */
function unquotedAt(statement: string, chars: RegExp, count: number): boolean[] | undefined {
  if (statement.search(chars) < 0) return undefined;
  let marked: ParseEntry[];
  try {
    marked = parse<string>(statement.replace(chars, '?$&'), (key) => `$${key}`);
  } catch {
    return undefined;
  }
  if (marked.length !== count) return undefined;
  return marked.map((entry) => typeof entry !== 'string' && 'op' in entry && entry.op === 'glob');
}

/** For each entry, whether each expansion in it is a variable's value by its name (`$HOME`, `${HOME}`, not `$@`, `${x/a/b}`). */
function namesOnly(statement: string, count: number): boolean[] | undefined {
  let marked: ParseEntry[];
  try {
    marked = parse<string>(statement, (key) => (/^[A-Za-z_]\w*$/.test(key) ? '' : EXPANDED));
  } catch {
    return undefined;
  }
  return marked.length === count ? marked.map((entry) => typeof entry === 'string' && !entry.includes(EXPANDED)) : undefined;
}

/** Where an expansion marked by {@link dollarReading} ends. */
const EXPANDED_END = '\u0002';
/** A mark put after each `${` before the parse, so a braced expansion is told from a bare one (the parser reads `$10` and `${10}` alike). */
const BRACED = '\u0003';
/** A mark put after {@link BRACED} in a braced expansion standing in double quotes (see `markBraces`). */
const IN_QUOTES = '\u0004';
/** A marked expansion, with what follows it (a name's character would read on: `${x}m`). */
const MARKED = /\u0001([^\u0001\u0002]*)\u0002(?=(\w?))/g;

/**
 * For a statement with a `$`, which entries hold their `$` as quoted text (`literal`): `eval
 * 'echo $x'` gets `echo $x` and reads it as a line (`eval "echo $x"` gets x's value as code), and
 * `awk '{print $1$2}'` joins no value at run time; and each entry's expansions as written
 * (`shown`): braced where they were and a bare `$name` would read on (`${x}m`), or is no name
 * (`${a[@]}`, `${#x}`, `${10}`: bash reads `$10` as `${1}0`), since the parser's text drops the
 * braces. Parsed again with each expansion marked; `undefined` when unsure.
 */
function dollarReading(statement: string, count: number): { literal: boolean[]; shown: (string | undefined)[] } | undefined {
  if (!statement.includes('$')) return undefined;
  const marked = parse<string>(markBraces(statement, BRACED, IN_QUOTES), (key) => `${EXPANDED}${key}${EXPANDED_END}`);
  if (marked.length !== count) return undefined;
  // A lone `$` (`=~ ^(x|y)$`) is text, no expansion; a bare one (`$10`, `$x`) is shown as written.
  // Braced, a name or a digit stays bare where nothing reads on; outside double quotes a `\#` is the
  // scanner's (see `shell-scan`), the line's `#`; inside them, the line's own (see `markBraces`).
  const bare = (key: string, next: string): boolean => /^[*@#?$!-]?$/.test(key) || (/^(?:[A-Za-z_]\w*|\d)$/.test(key) && next === '');
  const shown = (_: string, key: string, next: string): string => {
    if (!key.startsWith(BRACED)) return `$${key}`;
    const unmarked = key.replaceAll(BRACED, '');
    const written = unmarked.startsWith(IN_QUOTES) ? unmarked.slice(IN_QUOTES.length) : unmarked.replaceAll('\\#', '#');
    return bare(written, next) ? `$${written}` : `\${${written}}`;
  };
  return {
    literal: marked.map((entry) => typeof entry === 'string' && !entry.includes(EXPANDED)),
    shown: marked.map((entry) => (typeof entry === 'string' && entry.includes(EXPANDED) ? entry.replace(MARKED, shown).replaceAll(BRACED, '') : undefined)),
  };
}
