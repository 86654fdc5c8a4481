import { parse, type ParseEntry } from 'shell-quote';
import {
  COMMAND_OPTION_PROGRAMS, commandString, EVALUATORS, FIND_EXEC, HEADERS, KEYWORDS, LINE_ARGUMENTS, READERS, readsInput, RUNTIME_ARGUMENTS,
  scriptArguments, SHELLS, WRAPPERS,
} from './shell-programs.js';
import { evaluatingCommand, holdsCodeText } from './code-in-data.js';
import { codeVariable, shellWithoutCommand, unreadableRun } from './unreadable-runs.js';
import { commandShape } from './command-shape.js';
import { executedWrite } from './executed-writes.js';
import { packageCommandStarts } from './package-runs.js';
import { commandWrites, type CommandWrites, xargsPlaceholder } from './written-files.js';

/** How a part of a command line is judged: a `command` must be allowed; a `variant` is only checked against deny and ask rules. */
export type PartRole = 'command' | 'variant';

/** Where {@link analyseStatement} puts what it finds. */
export interface PartSink {
  /** Records a simple command (normalised text) or another spelling of one. */
  add(role: PartRole, text: string): void;
  /** Marks the line as too complex to judge, saying why. */
  flag(reason: string): void;
  /**
   * Notes what makes bash run text of the line as code (`evaluates`: arithmetic, a subscript...)
   * or may bring a command into that text (`carries`: a quoted `$(`, a value read at run time).
   * Only both together make the line too complex to judge (see `code-in-data`).
   */
  note(kind: 'evaluates' | 'carries', what: string): void;
  /**
   * Judges a command line that a command runs (a `sh -c` string, what `eval` gets). `quiet`:
   * it only may be one (a wrapper's argument with spaces), so what it cannot read is no reason to flag the line.
   */
  line(text: string, role: PartRole, depth: number, quiet?: boolean): void;
  /** Records a command whose arguments are only known when it runs, as a pattern (see `commandShape`): deny and ask rules that could match it hold. */
  shape(text: string): void;
  /** Records what a simple command writes (see `written-files`), for the user's write and edit rules. */
  write(writes: CommandWrites): void;
}

type Word = { readonly kind: 'word'; readonly text: string; readonly glob: boolean } | { readonly kind: 'redirect'; readonly op: string };

// What separates simple commands; every other operator shell-quote returns is a redirection.
const CONTROL = new Set([';', '&', '&&', '||', '|', '|&', ';;', ';&', ';;&', '(', ')']);
// Each word after a wrapper is tried as the start of the command; a longer list is too complex to check.
const MAX_WRAPPED_WORDS = 64;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;
// The files a command run by `xargs`, `find -exec`... gets when it runs, as a rule sees them.
const RUNTIME_ARGUMENT: Extract<Word, { kind: 'word' }> = Object.freeze({ kind: 'word', text: '{}', glob: false });

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
  let words: Word[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') words.push({ kind: 'word', text: entry, glob: false });
    else if ('comment' in entry) sink.line(entry.comment, role, depth + 1); // never expected: judge it rather than lose it
    else if (entry.op === 'glob') words.push({ kind: 'word', text: entry.pattern, glob: true });
    else if (CONTROL.has(entry.op)) {
      analyseWords(words, role, depth, sink, true);
      words = [];
    } else words.push({ kind: 'redirect', op: entry.op });
  }
  analyseWords(words, role, depth, sink, true);
}

function analyseWords(all: readonly Word[], role: PartRole, depth: number, sink: PartSink, suffixes: boolean): void {
  for (const word of all) {
    if (word.kind === 'word' && word.glob) sink.note('carries', 'file names from a glob');
    else if (word.kind === 'word' && holdsCodeText(word.text)) sink.note('carries', `a "$(" or backtick in quotes ("${word.text}")`);
  }
  let start = 0;
  for (;;) {
    const word = all[start];
    if (word === undefined || !isPlain(word)) break;
    if (KEYWORDS.has(word.text)) start += 1;
    else if (word.text === 'function') start += 2; // `function name`, then its body
    else break;
  }
  const first = all[start];
  if (first === undefined || (isPlain(first) && HEADERS.has(first.text))) return;
  const words = all.slice(start);
  const written = render(words);
  const plain = plainWords(words);
  const assignments = words.filter((w): w is Extract<Word, { kind: 'word' }> => isAssignment(w, words)).map((w) => w.text);
  const changed = codeVariable(assignments, plain.map((w) => w.text));
  if (changed !== undefined) sink.flag(changed);
  const evaluates = evaluatingCommand(basename(plain[0]?.text ?? ''), plain.slice(1).map((w) => w.text), assignments);
  if (evaluates !== undefined) sink.note('evaluates', evaluates);
  const writes = commandWrites(basename(plain[0]?.text ?? ''), plain.slice(1), redirectTargets(words), assignments);
  if (writes.unseen !== undefined) sink.flag(writes.unseen);
  const executed = executedWrite(writes);
  if (executed !== undefined) sink.flag(executed);
  sink.write(writes);
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
  if (READERS.has(base)) sink.note('carries', `input read at run time ("${base}")`);
  // An empty argument (`git log --grep ''`) is no run-time word: only a command name can be empty by accident.
  const unreadable = isDynamic(name) ? undefined : unreadableRun(name.text, args, plain.slice(1).map((w) => w.text !== '' && isDynamic(w)));
  if (unreadable !== undefined) sink.flag(unreadable);
  sink.add('variant', collapse([base, ...args].join(' ')));
  const shape = commandShape(base, plain.slice(1));
  if (shape !== undefined) sink.shape(shape);
  // ...and with its redirections kept in place, for `rm 2>/dev/null` against `rm *`.
  sink.add('variant', render([{ ...name, text: base }, ...words.filter((w) => w !== name && !isAssignment(w, words))]));
  if (SHELLS.has(base)) {
    const script = commandString(args);
    if (script !== undefined) sink.line(script, 'variant', depth + 1);
    else sink.flag(shellWithoutCommand(base, readsInput(base, args)));
  }
  if (COMMAND_OPTION_PROGRAMS.has(base)) {
    const script = commandString(args);
    if (script !== undefined) sink.line(script, 'variant', depth + 1);
    else if (base === 'script') sink.flag('"script" without -c, which runs a shell reading its input');
  }
  if (EVALUATORS.has(base)) sink.line(args.join(' '), 'variant', depth + 1);
  for (const script of scriptArguments(base, args)) sink.line(script, 'variant', depth + 1);
  if ((base === 'alias' && args.length > 0) || (base === 'hash' && args.includes('-p'))) {
    sink.flag(`"${base}", which can run a command under another name`);
  }
  if (WRAPPERS.has(base) && suffixes) {
    // Options of wrappers vary (sudo -u root, nice -n 5, timeout 5): every suffix may be the command.
    if (plain.length > MAX_WRAPPED_WORDS) sink.flag(`more than ${MAX_WRAPPED_WORDS} words after "${base}"`);
    const appended = RUNTIME_ARGUMENTS.has(base) ? [RUNTIME_ARGUMENT] : [];
    // `xargs -I R cp y R`: R is what xargs puts there, as `{}` is; the words as written are judged too (`-I r rm r`).
    const placeholder = base === 'xargs' ? xargsPlaceholder(args) : undefined;
    const replaced = (w: Word): Word => (w.kind === 'word' && w.text.includes(placeholder!) ? { ...w, text: w.text.replaceAll(placeholder!, '{}') } : w);
    for (const word of plain.slice(1, MAX_WRAPPED_WORDS)) {
      analyseWords([...words.slice(words.indexOf(word)), ...appended], 'variant', depth + 1, sink, false);
      if (placeholder) analyseWords([...words.slice(words.indexOf(word)).map(replaced), ...appended], 'variant', depth + 1, sink, false);
      // A word with spaces is a command line for some wrappers (`parallel 'rm {}'`), and may be one
      // for others: then what the checker cannot read in it is no reason to flag the line.
      if (/\s/.test(word.text)) sink.line(word.text, 'variant', depth + 1, !LINE_ARGUMENTS.has(base));
    }
  }
  if (base === 'find') findExecs(plain, depth, sink);
  // `npx cmd`, `npm exec -- cmd`: the command is judged from where it starts, as a wrapper's is.
  for (const start of suffixes ? packageCommandStarts(base, args) : []) {
    analyseWords(words.slice(words.indexOf(plain[start + 1]!)), 'variant', depth + 1, sink, true);
  }
}

/** The words of `find ... -exec cmd {} ;` that form commands; `-delete` is judged as `rm {}`. */
function findExecs(words: readonly Word[], depth: number, sink: PartSink): void {
  for (let i = 0; i < words.length; i++) {
    if (text(words[i]!) === '-delete') analyseWords([{ ...RUNTIME_ARGUMENT, text: 'rm' }, RUNTIME_ARGUMENT], 'variant', depth + 1, sink, true);
    if (!FIND_EXEC.has(text(words[i]!))) continue;
    let end = i + 1;
    while (end < words.length && text(words[end]!) !== ';' && text(words[end]!) !== '+') end += 1;
    const command = words.slice(i + 1, end);
    // `-exec rm ;` still gets a file: find names it with `{}`, or appends it with `+`.
    const withFile = command.some((w) => text(w).includes('{}')) ? command : [...command, RUNTIME_ARGUMENT];
    analyseWords(withFile, 'variant', depth + 1, sink, true);
    i = end;
  }
}

/** The words that are the command and its arguments: leading assignments and every redirection with its target dropped. */
function plainWords(words: readonly Word[]): Extract<Word, { kind: 'word' }>[] {
  const out: Extract<Word, { kind: 'word' }>[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word.kind === 'redirect') {
      i += 1; // its target
    } else if (/^\d+$/.test(word.text) && words[i + 1]?.kind === 'redirect') {
      // `2>/dev/null`: shell-quote splits off the descriptor, which is not an argument
    } else if (out.length > 0 || word.glob || !ASSIGNMENT.test(word.text)) {
      out.push(word);
    }
  }
  return out;
}

// Redirections that open their target for writing; `>&` does unless its target is a descriptor (`2>&1`, `>&-`).
const OUTPUT_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);

/** The files a command's redirections write: `> f`, `>> f`, `&> f`, `<> f`, `>& f`; not a `>` that compares in `[[ a > b ]]`. */
function redirectTargets(words: readonly Word[]): Extract<Word, { kind: 'word' }>[] {
  const out: Extract<Word, { kind: 'word' }>[] = [];
  let test = false;
  for (let i = 0; i + 1 < words.length; i++) {
    const word = words[i]!;
    const target = words[i + 1]!;
    // Only as the command's first word (`echo '[[' > f` writes f); a quoted `]]` ending it early counts a `>` too many.
    if (isPlain(word) && ((word.text === '[[' && i === 0) || word.text === ']]')) test = word.text === '[[';
    if (test || word.kind !== 'redirect' || !OUTPUT_REDIRECTS.has(word.op) || target.kind !== 'word') continue;
    if (word.op === '>&' && /^(?:\d+-?|-)$/.test(target.text)) continue;
    out.push(target);
  }
  return out;
}

/** Whether a word is one of the assignments in front of the command. */
function isAssignment(word: Word, words: readonly Word[]): boolean {
  if (word.kind !== 'word' || word.glob || !ASSIGNMENT.test(word.text)) return false;
  const name = words.findIndex((w) => w.kind === 'word' && !w.glob && !ASSIGNMENT.test(w.text) && !/^\d+$/.test(w.text));
  return name < 0 || words.indexOf(word) < name;
}

function isDynamic(word: Extract<Word, { kind: 'word' }>): boolean {
  // The parser marks `*` and `?` as globs, not a class: `r[m]` runs `rm` once a file of that name is there.
  if (word.glob || word.text === '' || /\[[^\]]+\]/.test(word.text)) return true;
  return word.text.includes('$') || /\{[^{}]*(?:,|\.\.)[^{}]*\}/.test(word.text);
}

function isPlain(word: Word): word is Extract<Word, { kind: 'word' }> {
  return word.kind === 'word' && !word.glob;
}

function text(word: Word): string {
  return word.kind === 'word' ? word.text : word.op;
}

function render(words: readonly Word[]): string {
  return collapse(words.map(text).join(' '));
}

/** Whitespace as the matcher sees it: any run (line breaks, tabs, other spaces) is one space. */
function collapse(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

function basename(path: string): string {
  const cut = path.replace(/\/+$/, '');
  const base = cut.slice(cut.lastIndexOf('/') + 1);
  return base === '' ? path : base;
}
