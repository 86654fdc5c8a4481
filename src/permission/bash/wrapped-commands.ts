/**
 * The commands a wrapper runs from its words (`sudo -u root rm x`, `timeout 5 grep y`,
 * `xargs rm`): from where its command starts when that is known (`wrapper-starts`), else from
 * each later word; with what xargs, parallel... fill in.
 *
 * @module
 */
import type { PartRole, PartSink } from './part-sink.js';
import { LINE_ARGUMENTS, RUNTIME_ARGUMENTS } from './shell-programs.js';
import { shellStringAt, whileFilled } from './filled-lines.js';
import { mayRead } from './inner-budget.js';
import { commandBase, shownName } from './program-names.js';
import { INPUT_ARGUMENT, isAssignment, isDynamic, RUNTIME_ARGUMENT, text, type TextWord, type Word } from './shell-words.js';
import { readXargs } from './xargs-options.js';
import { fillerRun, filledName, type FilledText } from './filler-runs.js';
import { commandStarts, wrappedStart } from './wrapper-starts.js';
import { SYNTAX } from './wrapper-syntax.js';
import { foldCase } from '../fold-case.js';
import { runsFromFile } from './runs/unreadable-runs.js';
import { FUNCTION_SETTING, functionChange, settingRead } from './wrapper-settings.js';
import { xargsCommands } from './xargs-commands.js';
import type { AnalyseWords, RunningCommand } from './running-command.js';
import { quoted } from '../quoted.js';
import { frontSettings, runTimeSettings } from './writes/temp-folder.js';
import { anyPathWrites } from './writes/written-words.js';

export type { AnalyseWords, RunningCommand } from './running-command.js';

// Each word after a wrapper is tried as the start of the command; a longer list is too complex to check.
const MAX_WRAPPED_WORDS = 64;

/** Records in `sink` the commands wrapper `command` runs, reading them with `analyse`. */
export function wrapperCommands(command: RunningCommand, sink: PartSink, analyse: AnalyseWords): void {
  const { plain, words } = command;
  // What xargs, parallel... read fills in their command's words: a command line there may be such
  // text, also where another wrapper runs them (`timeout 5 xargs -I{} sh -c {}`).
  const starts = commandStarts(plain, words.some((w) => w.kind === 'redirect'));
  const fillers = plain.flatMap((w, i) => (RUNTIME_ARGUMENTS.has(commandBase(w.text)) && starts(i) ? [i] : []));
  const filled = fillers.flatMap((i) => filledBy(plain[i]!.text, plain.slice(i + 1).map(text), sink));
  if (fillers.length > 0) whileFilled(sink, filled, () => wrapped(command, sink, analyse));
  else wrapped(command, sink, analyse);
}

/**
 * What `program` (xargs, parallel, sem, rush, entr, as written: `gxargs`) with `args` fills in
 * (none known: `{}` only); flags in `sink` what makes its command unknown, and a command name it
 * fills in (`xargs env`, `parallel env {} y`): one rule for all of them (see `filler-runs`).
 */
function filledBy(program: string, args: readonly string[], sink: PartSink): FilledText[] {
  const run = fillerRun(commandBase(program), args);
  if (typeof run === 'string') {
    sink.flag(run);
    return [];
  }
  const name = filledName(shownName(program), run);
  if (name !== undefined) sink.flag(name);
  return [run.filled];
}

/**
 * A wrapper's options vary (`sudo -u root`, `nice -n 5`, `timeout 5`): every suffix of its words
 * may be the command, unless where it starts is known (`timeout 5 grep rm y` runs grep; `jobs -x echo rm y`, echo).
 */
function wrapped({ base, shown, words, plain, depth }: RunningCommand, sink: PartSink, analyse: AnalyseWords): void {
  if (base === 'xargs' && xargsCommands({ words, plain, depth }, sink, analyse)) return;
  // Redirections may hide words (`nice -n 5 >f rm x` reads as `nice -n 5>f rm x`): then any later word may be
  // the command. Not coproc's, which has no options or operands (`coproc xargs rm <<< x` runs xargs).
  const start = words.some((w) => w.kind === 'redirect') && base !== 'coproc' ? undefined : wrappedStart(base, plain, 1);
  if (start !== undefined) {
    const name = plain[start.command];
    if (name === undefined) return;
    // `jobs -x %1`: a job's number put in place of its spec is no program the line shows.
    if (base === 'jobs' && name.text.startsWith('%')) sink.flag(`a command name only known when it runs (${quoted(name.text)}, a job's process group)`);
    const started = words.slice(words.indexOf(name));
    const given = start.settings.map((at) => plain[at]!);
    const settings = given.filter((word) => isAssignment(word, [word]));
    // mktemp's folder where a wrapper in the command runs it (`env TMPDIR=src timeout 5 mktemp`; see `temp-folder`).
    sink.environment(frontSettings(settings.map(text)));
    // Judged as a command where it starts: a wrapper in it is read in turn (`timeout 5 sudo rm y`).
    if (mayRead(sink, depth + 1, started)) analyse(started, 'variant', depth + 1, sink, true);
    // env's and sudo's settings are the command's environment, as assignments in front of it would be:
    // judged so once more (`env PATH=bin ls` changes PATH, `sudo GIT_WORK_TREE=src git checkout .` where git writes).
    if (settings.length > 0 && mayRead(sink, depth + 1, started)) analyse([...settings, ...started], 'variant', depth + 1, sink, false);
    for (const word of given) settingRead(word, settings.includes(word), depth, sink);
    // A name with spaces may be a command line, as a wrapper's word may: read quietly, as there.
    if (/\s/.test(name.text)) sink.line(name.text, 'variant', depth + 1, true);
    return;
  }
  // A word of env's or sudo's (or an unknown wrapper's) may be a setting whose name is only known when it runs: `env $v=src mktemp` (see `temp-folder`).
  if (!Object.hasOwn(SYNTAX, base) || SYNTAX[base]!.settings !== undefined) sink.environment(runTimeSettings(plain.slice(1).map(text)));
  if (plain.length > MAX_WRAPPED_WORDS) sink.flag(`more than ${MAX_WRAPPED_WORDS} words after ${quoted(shown)}`);
  // `xargs -I R cp y R`: R is what xargs puts there, as `{}` is; the words as written are judged too (`-I r rm r`).
  const run = base === 'xargs' ? readXargs(plain.slice(1).map(text)) : undefined;
  const placeholder = typeof run === 'object' ? run.placeholder : undefined;
  // With a placeholder xargs appends nothing (`xargs -I{} touch a.ts` writes only a.ts), unless a later `-L` drops it.
  // What xargs, parallel... read may be an option there; entr reads names of files only, and appends none.
  const appended = RUNTIME_ARGUMENTS.has(base) && (typeof run === 'object' ? run.appends : true) ? [base === 'entr' ? RUNTIME_ARGUMENT : INPUT_ARGUMENT] : [];
  const replaced = (w: Word): Word => (w.kind === 'word' && w.text.includes(placeholder!) ? { ...w, text: w.text.replaceAll(placeholder!, '{}'), input: true } : w);
  for (const [at, word] of plain.slice(1, MAX_WRAPPED_WORDS).entries()) {
    const suffix = [...words.slice(words.indexOf(word)), ...appended];
    if (!mayRead(sink, depth + 1, suffix)) return;
    if (shellStringAt(plain, at + 1)) continue; // judged as the shell's line
    // Any word may be one of env's or sudo's settings here (`sudo "$o" 'BASH_FUNC_ls%%=() {…}' bash`).
    if (FUNCTION_SETTING.test(word.text)) sink.flag(functionChange(word.text));
    // Said first (the first reason is the one given): the word is a program only if the wrapper, whose options are unknown, runs it.
    if (!Object.hasOwn(SYNTAX, base) && runsFromFile(foldCase(word.text))) sink.flag(`a word after ${quoted(shown)}, a wrapper whose syntax the rules do not know, which may be a program run from a file (${quoted(word.text)})`);
    analyse(suffix, 'variant', depth + 1, sink, false);
    // A name only known when it runs may be the command here (`flock f $m src/a`, `xargs $m <<< src/a`):
    // for the write rules it writes any path, as where a command surely starts (see `simple-command`).
    if (runTimeCommand(word)) sink.write(anyPathWrites(`a word after ${quoted(shown)} that may be a command name only known when it runs (${quoted(word.text)}), which may write any path`));
    if (placeholder && mayRead(sink, depth + 1, suffix)) analyse([...words.slice(words.indexOf(word)).map(replaced), ...appended], 'variant', depth + 1, sink, false);
    // A word with spaces is a command line for some wrappers (`parallel 'rm {}'`), and may be one
    // for others: then what the checker cannot read in it is no reason to flag the line.
    if (/\s/.test(word.text)) sink.line(word.text, 'variant', depth + 1, !LINE_ARGUMENTS.has(base));
  }
}

/**
 * Whether a wrapper's word may be a command whose name only the run knows: an expansion (`$m`);
 * not an option (`-j$n`), what xargs reads (`{}`) or a glob, which names files rather than programs.
 */
function runTimeCommand(word: TextWord): boolean {
  return word.text.includes('$') && word.input !== true && !word.text.startsWith('-') && isDynamic(word);
}
