/**
 * Reading one simple command: what it runs, writes and hides from the rules (see
 * `command-parts`). Its words come from `statement-words`, or from a command that runs another.
 *
 * @module
 */
import { buildsValue, DECLARERS, evaluatingCommand } from './code-in-data.js';
import { commandShape } from './command-shape.js';
import { executedWrite } from './writes/executed-writes.js';
import { foldCase } from '../fold-case.js';
import { commandBase, shownName } from './program-names.js';
import { innerCommands } from './inner-commands.js';
import type { PartRole, PartSink } from './part-sink.js';
import { HEADERS, KEYWORDS, READERS } from './shell-programs.js';
import { basename, collapse, isAssignment, isDynamic, isPlain, plainWords, redirectTargets, render, text, type Word, writtenAs } from './shell-words.js';
import { codeVariable, referenceTargets, unreadableRun } from './runs/unreadable-runs.js';
import { filesRun } from './runs/run-files.js';
import { runTimeFormat, runTimeOption } from './run-time-names.js';
import { variablesSet } from './set-names.js';
import { noteCarriers, noteListCarriers } from './word-carriers.js';
import { commandWrites } from './writes/written-files.js';
import { frontSettings, referenceSettings, runTimeSettings } from './writes/temp-folder.js';
import { anyPath, anyPathWrites } from './writes/written-words.js';
import { keywordOption } from './runs/keyword-option.js';
import { quoted } from '../quoted.js';

/**
 * Records in `sink` one simple command's words as `role` (`suffixes`: a wrapper's later words
 * may start the command): its text as written, as variants its plain form (assignments and
 * redirections dropped, the binary's folder removed) and the commands it runs, and what it
 * writes, sets and hides from the rules.
 */
export function analyseWords(all: readonly Word[], role: PartRole, depth: number, sink: PartSink, suffixes: boolean): void {
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
  // Programs are found on a disk that may ignore case (`MAKE`, `Sed -i` run make and sed there), so
  // their names fold as the checks of files fold (see `foldCase`); builtins and keywords do not.
  // Read by the name the checks know (`grm` is rm, `gxargs` xargs: see `commandBase`); reasons quote it as written.
  const program = plain[0]?.text ?? '';
  const shown = shownName(program);
  // After a wrapper any word may be the command; an option (`-j$(nproc)`) cannot be.
  const head = plain[0];
  const unseen = head !== undefined && isDynamic(head) && (suffixes || !program.startsWith('-')) ? `a command name only known when it runs (${quoted(writtenAs(head))})` : undefined;
  const found = commandWrites(commandBase(program), plain.slice(1), redirectTargets(words), assignments, shown);
  // Such a name may be any program (`m=rm; $m src/a`): for the write rules it writes any path. Only
  // where the command starts (`suffixes`): a wrapper's word tried as its start (`xargs -I % echo %`)
  // is left to the bash rules' flag, as it may well be no command.
  const writes = unseen === undefined || !suffixes ? found : { ...found, joined: [...found.joined, anyPath(`${unseen}, which may write any path`)] };
  if (writes.unseen !== undefined) sink.flag(writes.unseen);
  const executed = executedWrite(writes);
  if (executed !== undefined) sink.flag(executed);
  sink.write(writes);
  const setter = basename(plain[0]?.text ?? '');
  // A statement of assignments, or an `export` / `declare` of them: later commands (make) may read them.
  if (plain.length === 0) sink.environment(assignments);
  else if (DECLARERS.has(setter)) {
    const args = plain.slice(1).map((w) => w.text);
    // `declare -n r=TMPDIR`: assigning r later sets mktemp's folder, as may `export $v=src` (see `temp-folder`).
    const operands = args.filter((arg) => !arg.startsWith('-'));
    // An unquoted option only known when the line runs may split into operands (`declare -$o` with `o='x TMPDIR=src'`).
    const split = plain.slice(1).filter((w) => w.quoted !== true && runTimeOption(w.text)).map((w) => w.text);
    sink.environment([...operands.filter((arg) => arg.includes('=')), ...referenceSettings(referenceTargets([setter, ...args])), ...runTimeSettings([...operands, ...split])]);
  }
  // TMPDIR in front of a command is mktemp's folder also where that command runs mktemp (`TMPDIR=src
  // nice mktemp`, `TMPDIR=src bash -c mktemp`): kept for what follows on the line, which judges every
  // such value (see `temp-folder`).
  if (plain.length > 0) sink.environment(frontSettings(assignments));
  if (plain.length === 0) {
    if (words.some((w) => w.kind === 'redirect')) sink.add(role, written); // `> file` still writes
    return; // only assignments: nothing runs
  }
  sink.add(role, written);
  const name = plain[0]!;
  if (unseen !== undefined) sink.flag(unseen);
  const base = commandBase(name.text);
  const args = plain.slice(1).map((w) => w.text);
  const run = filesRun(base, plain.slice(1), shown);
  if (run !== undefined) sink.runs(run);
  if (READERS.has(base)) sink.note('carries', `input read at run time (${quoted(shown)})`);
  // An empty argument (`git log --grep ''`) is no run-time word: only a command name can be empty by accident.
  const dynamic = plain.slice(1).map((w) => w.text !== '' && isDynamic(w));
  const unreadable = isDynamic(name) ? undefined : unreadableRun(foldCase(name.text), args, dynamic);
  if (unreadable !== undefined) sink.flag(unreadable);
  // With the keyword option on, a later `NAME=value` word anywhere is an assignment (`set -k; mktemp
  // TMPDIR=src`): for the write rules the line may then write any path, as after a run-time name.
  const keyword = isDynamic(name) ? undefined : keywordOption(base, args, dynamic);
  if (keyword !== undefined) sink.write(anyPathWrites(`${keyword}, after which a command may write any path`));
  sink.add('variant', collapse([base, ...plain.slice(1).map(writtenAs)].join(' ')));
  const shape = commandShape(base, plain.slice(1));
  if (shape !== undefined) sink.shape(shape);
  // ...and with its redirections kept in place, for `rm 2>/dev/null` against `rm *`.
  sink.add('variant', render([{ ...name, text: base }, ...words.filter((w) => w !== name && !isAssignment(w, words))]));
  innerCommands({ base, shown, words, plain, depth, suffixes }, sink, analyseWords);
}

/** Variables set without an assignment word (`read PATH`, `printf -v GIT_DIR`, `${X:=v}`, `(( PATH = 1 ))`): judged as assignments of values the line does not show. */
export function settings(names: readonly string[], sink: PartSink): void {
  if (names.length === 0) return;
  const changed = codeVariable(names, []);
  if (changed !== undefined) sink.flag(changed);
  sink.write(commandWrites('', [], [], names));
  // For later commands a value the line does not show (`read TMPDIR; mktemp`, `read $v`: see `temp-folder`).
  sink.environment([...names, ...runTimeSettings(names)]);
}
