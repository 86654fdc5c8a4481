/**
 * The commands a simple command runs besides itself: a shell's `-c` string, what `eval`,
 * `trap` or `env -S` get, every suffix of a wrapper's words (`sudo -u root rm x`), the
 * command of `find -exec`, and what `npx` or `npm exec` start.
 *
 * @module
 */
import { isMake, makeSettings } from './runs/make-runs.js';
import { packageCommandStarts } from './runs/package-runs.js';
import type { PartRole, PartSink } from './part-sink.js';
import {
  COMMAND_OPTION_PROGRAMS, commandFlag, commandString, EVALUATORS, FIND_EXEC, LINE_ARGUMENTS, readsInput, REPEATERS, RUNTIME_ARGUMENTS,
  scriptArguments, SHELLS, WRAPPERS,
} from './shell-programs.js';
import { programRun, shellArguments, wrapsCommand } from './command-programs.js';
import { completionRuns } from './completion-runs.js';
import { filledLine, shellStringAt, whileFilled } from './filled-lines.js';
import { historyRun } from './history-runs.js';
import { mayRead } from './inner-budget.js';
import { basename, isAssignment, RUNTIME_ARGUMENT, text, type TextWord, type Word } from './shell-words.js';
import { shellWithoutCommand } from './runs/unreadable-runs.js';
import { PLACEHOLDER } from './shell-scan.js';
import { filledCommandName } from './filled-names.js';
import { readXargs } from './xargs-options.js';
import { fillerRun, filledName, type FilledText } from './filler-runs.js';
import { commandStarts, knownCommandStart } from './wrapper-starts.js';

/** Reads words as a simple command (`analyseWords`); `suffixes`: a wrapper's later words may start the command. */
export type AnalyseWords = (words: readonly Word[], role: PartRole, depth: number, sink: PartSink, suffixes: boolean) => void;

/** A simple command as `innerCommands` reads it. */
export interface RunningCommand {
  /** Its name without the binary's folder. */
  readonly base: string;
  /** Its words as written, redirections included. */
  readonly words: readonly Word[];
  /** The command's name and arguments (see `plainWords`). */
  readonly plain: readonly TextWord[];
  /** How deep in command lines run by other commands it is (see `commandParts`). */
  readonly depth: number;
  /** Whether it is read where a command starts, so a wrapper's later words are tried as the command. */
  readonly suffixes: boolean;
}

// Each word after a wrapper is tried as the start of the command; a longer list is too complex to check.
const MAX_WRAPPED_WORDS = 64;

/** Records in `sink` the commands `command` runs from its arguments, reading them with `analyse`. */
export function innerCommands(command: RunningCommand, sink: PartSink, analyse: AnalyseWords): void {
  const { base, words, plain, depth, suffixes } = command;
  const args = plain.slice(1).map((w) => w.text);
  // The name as bash runs it, quotes removed (`"trap"`, `tr''ap`): the raw line's syntax test misses it.
  if (REPEATERS.has(base)) sink.repeats();
  // `capsh -- -c 'x'` hands its words after `--` to bash.
  const shell = SHELLS.has(base) ? args : shellArguments(base, args);
  if (shell !== undefined) {
    const script = commandString(shell);
    if (script !== undefined) commandLine(base, script, depth, sink);
    else if (commandFlag(shell) >= 0) filledLine(sink, base, undefined);
    else sink.flag(shellWithoutCommand(base, readsInput(base, shell)));
  }
  if (COMMAND_OPTION_PROGRAMS.has(base)) {
    const script = commandString(args);
    if (script !== undefined) commandLine(base, script, depth, sink);
    else if (commandFlag(args) >= 0) filledLine(sink, base, undefined);
    else if (base === 'script') sink.flag('"script" without -c, which runs a shell reading its input');
  }
  if (EVALUATORS.has(base)) {
    commandLine(base, args.join(' '), depth, sink);
    // The value of an expansion is read again as code (`eval "echo $x"` with `x='a; rm y'`). A `$`
    // quoted as text (`eval 'echo $x'`) is no expansion: eval reads it as part of the line judged above.
    const expanded = plain.slice(1).find((w) => /[$`]/.test(w.text) && (w.literal !== true || w.text.includes(PLACEHOLDER)));
    if (expanded !== undefined) sink.flag(`"${base}" of text with an expansion (${JSON.stringify(expanded.text)}), whose value is read as commands`);
  }
  for (const script of scriptArguments(base, args)) commandLine(base, script, depth, sink);
  // Inside xargs or find a line argument holding `{}` is filled in too (`xargs -I{} sg grp {}`).
  if (LINE_ARGUMENTS.has(base)) for (const arg of args) filledLine(sink, base, arg);
  const completion = completionRuns(base, args);
  if (completion.unreadable !== undefined) sink.flag(completion.unreadable);
  for (const line of completion.lines) sink.line(line, 'variant', depth + 1);
  const unreadable = historyRun(base, args) ?? programRun(base, args);
  if (unreadable !== undefined) sink.flag(unreadable);
  if ((base === 'alias' && args.length > 0) || (base === 'hash' && args.includes('-p'))) {
    sink.flag(`"${base}", which can run a command under another name`);
  }
  if ((WRAPPERS.has(base) || wrapsCommand(base, args)) && suffixes) {
    // What xargs, parallel... read fills in their command's words: a command line there may be such
    // text, also where another wrapper runs them (`timeout 5 xargs -I{} sh -c {}`).
    const starts = commandStarts(plain, words.some((w) => w.kind === 'redirect'));
    const fillers = plain.flatMap((w, i) => (RUNTIME_ARGUMENTS.has(basename(w.text)) && starts(i) ? [i] : []));
    const filled = fillers.flatMap((i) => filledBy(basename(plain[i]!.text), plain.slice(i + 1).map(text), sink));
    if (fillers.length > 0) whileFilled(sink, filled, () => wrapped(command, sink, analyse));
    else wrapped(command, sink, analyse);
  }
  if (base === 'find') whileFilled(sink, [], () => findExecs(plain, depth, sink, analyse));
  if (isMake(base)) makeVariables(command, sink);
  // `npx cmd`, `npm exec -- cmd`: the command is judged from where it starts, as a wrapper's is.
  for (const start of suffixes ? packageCommandStarts(base, args) : []) {
    const started = words.slice(words.indexOf(plain[start + 1]!));
    if (!mayRead(sink, depth + 1, started)) break;
    analyse(started, 'variant', depth + 1, sink, true);
  }
}

/**
 * What `program` (xargs, parallel, sem, rush, entr) with `args` fills in (none known: `{}` only);
 * flags in `sink` what makes its command unknown, and a command name it fills in (`xargs env`,
 * `parallel env {} y`): one rule for all of them (see `filler-runs`).
 */
function filledBy(program: string, args: readonly string[], sink: PartSink): FilledText[] {
  const run = fillerRun(program, args);
  if (typeof run === 'string') {
    sink.flag(run);
    return [];
  }
  const name = filledName(program, run);
  if (name !== undefined) sink.flag(name);
  return [run.filled];
}

/** Judges `line`, which `program` runs as commands (a `-c` string, `eval`'s words, `env -S`...). */
function commandLine(program: string, line: string, depth: number, sink: PartSink): void {
  filledLine(sink, program, line);
  sink.line(line, 'variant', depth + 1);
}

/** make's variables (`make CC='rm -rf ..'`, `CC=... make`) become recipe text: each value is judged as the command it may start. */
function makeVariables({ words, plain, depth }: RunningCommand, sink: PartSink): void {
  const assignments = words.filter((w) => isAssignment(w, words)).map(text);
  const { unreadable, lines } = makeSettings(plain.slice(1).map(text), assignments);
  if (unreadable !== undefined) sink.flag(unreadable);
  for (const line of lines) sink.line(line.text, 'variant', depth + 1, !line.strict);
}

/**
 * A wrapper's options vary (`sudo -u root`, `nice -n 5`, `timeout 5`): every suffix of its words
 * may be the command, unless where it starts is known (`timeout 5 grep rm y` runs grep; `jobs -x echo rm y`, echo).
 */
function wrapped({ base, words, plain, depth }: RunningCommand, sink: PartSink, analyse: AnalyseWords): void {
  // Redirections may hide words (`nice -n 5 >f rm x` reads as `nice -n 5>f rm x`): then any later word may be the command.
  const start = words.some((w) => w.kind === 'redirect') ? undefined : knownCommandStart(base, plain.map(text), 1);
  if (start !== undefined) {
    const name = plain[start];
    if (name === undefined) return;
    // `jobs -x %1`: a job's number put in place of its spec is no program the line shows.
    if (base === 'jobs' && name.text.startsWith('%')) sink.flag(`a command name only known when it runs ("${name.text}", a job's process group)`);
    const started = words.slice(words.indexOf(name));
    // Judged as a command where it starts: a wrapper in it is read in turn (`timeout 5 sudo rm y`).
    if (mayRead(sink, depth + 1, started)) analyse(started, 'variant', depth + 1, sink, true);
    // A name with spaces may be a command line, as a wrapper's word may: read quietly, as there.
    if (/\s/.test(name.text)) sink.line(name.text, 'variant', depth + 1, true);
    return;
  }
  if (plain.length > MAX_WRAPPED_WORDS) sink.flag(`more than ${MAX_WRAPPED_WORDS} words after "${base}"`);
  // `xargs -I R cp y R`: R is what xargs puts there, as `{}` is; the words as written are judged too (`-I r rm r`).
  const run = base === 'xargs' ? readXargs(plain.slice(1).map(text)) : undefined;
  const placeholder = typeof run === 'object' ? run.placeholder : undefined;
  // With a placeholder xargs appends nothing (`xargs -I{} touch a.ts` writes only a.ts), unless a later `-L` drops it.
  const appended = RUNTIME_ARGUMENTS.has(base) && (typeof run === 'object' ? run.appends : true) ? [RUNTIME_ARGUMENT] : [];
  const replaced = (w: Word): Word => (w.kind === 'word' && w.text.includes(placeholder!) ? { ...w, text: w.text.replaceAll(placeholder!, '{}') } : w);
  for (const [at, word] of plain.slice(1, MAX_WRAPPED_WORDS).entries()) {
    const suffix = [...words.slice(words.indexOf(word)), ...appended];
    if (!mayRead(sink, depth + 1, suffix)) return;
    if (shellStringAt(plain, at + 1)) continue; // judged as the shell's line
    analyse(suffix, 'variant', depth + 1, sink, false);
    if (placeholder && mayRead(sink, depth + 1, suffix)) analyse([...words.slice(words.indexOf(word)).map(replaced), ...appended], 'variant', depth + 1, sink, false);
    // A word with spaces is a command line for some wrappers (`parallel 'rm {}'`), and may be one
    // for others: then what the checker cannot read in it is no reason to flag the line.
    if (/\s/.test(word.text)) sink.line(word.text, 'variant', depth + 1, !LINE_ARGUMENTS.has(base));
  }
}

/** The words of `find ... -exec cmd {} ;` that form commands; `-delete` is judged as `rm {}`. */
function findExecs(words: readonly Word[], depth: number, sink: PartSink, analyse: AnalyseWords): void {
  for (let i = 0; i < words.length; i++) {
    if (text(words[i]!) === '-delete' && mayRead(sink, depth + 1, [])) analyse([{ ...RUNTIME_ARGUMENT, text: 'rm' }, RUNTIME_ARGUMENT], 'variant', depth + 1, sink, true);
    if (!FIND_EXEC.has(text(words[i]!))) continue;
    let end = i + 1;
    while (end < words.length && text(words[end]!) !== ';' && text(words[end]!) !== '+') end += 1;
    const command = words.slice(i + 1, end);
    // `-execdir sh -c 'echo x > a.ts'` runs in the folder of each file found, at any depth.
    if (/dir$/.test(text(words[i]!))) sink.write({ files: [], joined: [], names: [], chdir: true });
    // `-exec rm ;` still gets a file: find names it with `{}`, or appends it with `+`.
    const withFile = command.some((w) => text(w).includes('{}')) ? command : [...command, RUNTIME_ARGUMENT];
    const name = filledCommandName(command.map(text), (word) => word.includes('{}'), 'find');
    if (name !== undefined) sink.flag(name);
    if (!mayRead(sink, depth + 1, withFile)) return;
    analyse(withFile, 'variant', depth + 1, sink, true);
    i = end;
  }
}
