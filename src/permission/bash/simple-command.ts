/**
 * Reading one statement of a command line into simple commands: what each runs, writes and
 * hides from the rules (see `command-parts`).
 *
 * @module
 */
import { parse, type ParseEntry } from 'shell-quote';
import { buildsValue, buildsValueByExpansion, DECLARERS, evaluatingCommand } from './code-in-data.js';
import { commandShape } from './command-shape.js';
import { arrayElements } from './compound-assignment.js';
import { executedWrite } from './writes/executed-writes.js';
import { innerCommands } from './inner-commands.js';
import type { PartRole, PartSink } from './part-sink.js';
import { HEADERS, KEYWORDS, READERS } from './shell-programs.js';
import { basename, collapse, isAssignment, isDynamic, isPlain, plainWords, redirectTargets, render, text, type TextWord, type Word } from './shell-words.js';
import { PLACEHOLDER } from './shell-scan.js';
import { OPTION_VARIABLE } from './runs/option-variables.js';
import { codeVariable, unreadableRun } from './runs/unreadable-runs.js';
import { filesRun } from './runs/run-files.js';
import { runTimeFormat } from './run-time-names.js';
import { variablesSet } from './set-names.js';
import { noteCarriers, noteListCarriers } from './word-carriers.js';
import { commandWrites } from './writes/written-files.js';

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
  const literal = literalDollars(statement, entries.length);
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
    } else if (typeof entry === 'string') words.push(stringWord(entry, literal?.[i] === true, patterns?.[i] ?? PATTERN.test(entry), (split?.[i] ?? true) || named?.[i] !== true));
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
 * value: `"$@"`, `"${x/a/-delete}"`). The parser marks neither quoted braces nor quoted
 * expansions, so `unquotedAt` and `namesOnly` find them.
 */
function stringWord(entry: string, literal: boolean, unquoted: boolean, splits: boolean): TextWord {
  const expands = entry.includes('$');
  return {
    kind: 'word',
    text: entry,
    glob: false,
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

/**
 * For a statement with a `$`, which entries hold their `$` as quoted text: `eval 'echo $x'`
 * gets `echo $x` and reads it as a line (`eval "echo $x"` gets x's value as code), and
 * `awk '{print $1$2}'` joins no value at run time. Parsed again with each expansion marked;
 * `undefined` when unsure.
 */
function literalDollars(statement: string, count: number): boolean[] | undefined {
  if (!statement.includes('$')) return undefined;
  const marked = parse<string>(statement, () => EXPANDED);
  if (marked.length !== count) return undefined;
  return marked.map((entry) => typeof entry === 'string' && !entry.includes(EXPANDED));
}

function analyseWords(all: readonly Word[], role: PartRole, depth: number, sink: PartSink, suffixes: boolean): void {
  let start = 0;
  for (;;) {
    const word = all[start];
    if (word === undefined || !isPlain(word)) break;
    // `time [[ ... ]]` times a test: the reserved word runs no command of its words.
    const timed = word.text === 'time' ? (all[start + 1]?.kind === 'word' && text(all[start + 1]!) === '-p' ? 2 : 1) : 0;
    if (KEYWORDS.has(word.text)) start += 1;
    else if (word.text === 'function') start += 2; // `function name`, then its body
    else if (timed > 0 && all[start + timed]?.kind === 'word' && text(all[start + timed]!) === '[[') start += timed;
    else break;
  }
  const first = all[start];
  // In `[[` a pattern is matched, never expanded to file names (`[[ $b =~ ^f/(.*)$ ]]`).
  const test = first !== undefined && isPlain(first) && first.text === '[[';
  noteCarriers(all.slice(start), test, sink);
  if (first === undefined) return;
  if (isPlain(first) && HEADERS.has(first.text)) {
    // `for NAME do CMD` (no `;` before `do`, POSIX) and `for NAME { CMD; }`: the header ends
    // at that word, and the loop body's first command follows it in the same piece.
    const loop = first.text === 'for' || first.text === 'select';
    const body = loop ? all.findIndex((w, i) => i > start + 1 && isPlain(w) && (w.text === 'do' || w.text === '{')) : -1;
    // `for PATH in ./bin` sets its name as an assignment would.
    const header = plainWords(all.slice(start, body < 0 ? undefined : body)).map((w) => w.text);
    if (loop) noteListCarriers(header, sink);
    settings(variablesSet(first.text, header.slice(1), header), sink);
    if (body >= 0) analyseWords(all.slice(body), role, depth, sink, suffixes);
    return;
  }
  const words = all.slice(start);
  const written = render(words);
  const plain = plainWords(words);
  const assignments = words.filter((w) => isAssignment(w, words)).map((w) => (w.kind === 'word' ? w.text : w.op));
  const changed = codeVariable(assignments, plain.map((w) => w.text));
  if (changed !== undefined) sink.flag(changed);
  // The assignments' own text too: a subscript is arithmetic (`x[PATH=1]=2`).
  settings(variablesSet(basename(plain[0]?.text ?? ''), plain.slice(1).map((w) => w.text), [...plain.map((w) => w.text), ...assignments]), sink);
  const format = runTimeFormat(basename(plain[0]?.text ?? ''), plain.slice(1));
  if (format !== undefined) sink.flag(format);
  const evaluates = evaluatingCommand(basename(plain[0]?.text ?? ''), plain.slice(1).map((w) => w.text), assignments);
  if (evaluates !== undefined) sink.note('evaluates', evaluates);
  // A value built at run time (`z+==1`, `printf -v z`) may be code where arithmetic evaluates it (`((z))`).
  const built = buildsValue(basename(plain[0]?.text ?? ''), plain.slice(1).map((w) => w.text), assignments);
  if (built !== undefined) sink.note('carries', built);
  const writes = commandWrites(basename(plain[0]?.text ?? ''), plain.slice(1), redirectTargets(words), assignments);
  if (writes.unseen !== undefined) sink.flag(writes.unseen);
  const executed = executedWrite(writes);
  if (executed !== undefined) sink.flag(executed);
  sink.write(writes);
  const setter = basename(plain[0]?.text ?? '');
  // A statement of assignments, or an `export` / `declare` of them: later commands (make) may read them.
  if (plain.length === 0) sink.environment(assignments);
  else if (DECLARERS.has(setter)) sink.environment(plain.slice(1).map((w) => w.text).filter((arg) => !arg.startsWith('-') && arg.includes('=')));
  if (plain.length === 0) {
    if (words.some((w) => w.kind === 'redirect')) sink.add(role, written); // `> file` still writes
    return; // only assignments: nothing runs
  }
  sink.add(role, written);
  const name = plain[0]!;
  // After a wrapper any word may be the command; an option (`-j$(nproc)`) cannot be.
  if (isDynamic(name) && (suffixes || !name.text.startsWith('-'))) sink.flag(`a command name only known when it runs ("${name.text}")`);
  const base = basename(name.text);
  const args = plain.slice(1).map((w) => w.text);
  const run = filesRun(base, plain.slice(1));
  if (run !== undefined) sink.runs(run);
  if (READERS.has(base)) sink.note('carries', `input read at run time ("${base}")`);
  // An empty argument (`git log --grep ''`) is no run-time word: only a command name can be empty by accident.
  const unreadable = isDynamic(name) ? undefined : unreadableRun(name.text, args, plain.slice(1).map((w) => w.text !== '' && isDynamic(w)));
  if (unreadable !== undefined) sink.flag(unreadable);
  sink.add('variant', collapse([base, ...args].join(' ')));
  const shape = commandShape(base, plain.slice(1));
  if (shape !== undefined) sink.shape(shape);
  // ...and with its redirections kept in place, for `rm 2>/dev/null` against `rm *`.
  sink.add('variant', render([{ ...name, text: base }, ...words.filter((w) => w !== name && !isAssignment(w, words))]));
  innerCommands({ base, words, plain, depth, suffixes }, sink, analyseWords);
}

/** Variables set without an assignment word (`read PATH`, `printf -v GIT_DIR`, `${X:=v}`, `(( PATH = 1 ))`): judged as assignments of values the line does not show. */
export function settings(names: readonly string[], sink: PartSink): void {
  if (names.length === 0) return;
  const changed = codeVariable(names, []);
  if (changed !== undefined) sink.flag(changed);
  sink.write(commandWrites('', [], [], names));
}
