/**
 * The commands a simple command runs besides itself: a shell's `-c` string, what `eval`,
 * `trap` or `env -S` get, a wrapper's command (`sudo -u root rm x`: see `wrapped-commands`),
 * the command of `find -exec`, and what `npx` or `npm exec` start.
 *
 * @module
 */
import { isMake, makeSettings } from './runs/make-runs.js';
import { packageCommandStarts } from './runs/package-runs.js';
import type { PartSink } from './part-sink.js';
import {
  COMMAND_OPTION_PROGRAMS, commandFlag, commandString, EVALUATORS, FIND_EXEC, LINE_ARGUMENTS, readsInput, REPEATERS, scriptArguments, SHELLS, WRAPPERS,
} from './shell-programs.js';
import { programRun, shellArguments, wrapsCommand } from './command-programs.js';
import { completionRuns } from './completion-runs.js';
import { filledLine, whileFilled } from './filled-lines.js';
import { historyRun } from './history-runs.js';
import { mayRead } from './inner-budget.js';
import { isAssignment, RUNTIME_ARGUMENT, text, type TextWord } from './shell-words.js';
import { shellWithoutCommand } from './runs/unreadable-runs.js';
import { PLACEHOLDER } from './shell-scan.js';
import { filledCommandName } from './filled-names.js';
import { execSpan, valueEnd } from './find-exec.js';
import { wrapperCommands, type AnalyseWords, type RunningCommand } from './wrapped-commands.js';
import { quoted } from '../quoted.js';

export type { AnalyseWords, RunningCommand } from './wrapped-commands.js';

/** Records in `sink` the commands `command` runs from its arguments, reading them with `analyse`. */
export function innerCommands(command: RunningCommand, sink: PartSink, analyse: AnalyseWords): void {
  // Read by `base`; the reasons quote `shown`, the name as written (`genv`, not `env`).
  const { base, shown, words, plain, depth, suffixes } = command;
  const args = plain.slice(1).map((w) => w.text);
  // The name as bash runs it, quotes removed (`"trap"`, `tr''ap`): the raw line's syntax test misses it.
  if (REPEATERS.has(base)) sink.repeats();
  // `capsh -- -c 'x'` hands its words after `--` to bash.
  const shell = SHELLS.has(base) ? args : shellArguments(base, args);
  if (shell !== undefined) {
    const script = commandString(shell);
    if (script !== undefined) commandLine(shown, script, depth, sink);
    else if (commandFlag(shell) >= 0) filledLine(sink, shown, undefined);
    else sink.flag(shellWithoutCommand(shown, readsInput(base, shell)));
  }
  if (COMMAND_OPTION_PROGRAMS.has(base)) {
    const script = commandString(args);
    if (script !== undefined) commandLine(shown, script, depth, sink);
    else if (commandFlag(args) >= 0) filledLine(sink, shown, undefined);
    else if (base === 'script') sink.flag('"script" without -c, which runs a shell reading its input');
  }
  if (EVALUATORS.has(base)) {
    commandLine(shown, args.join(' '), depth, sink);
    // The value of an expansion is read again as code (`eval "echo $x"` with `x='a; rm y'`). A `$`
    // quoted as text (`eval 'echo $x'`) is no expansion: eval reads it as part of the line judged above.
    const expanded = plain.slice(1).find((w) => /[$`]/.test(w.text) && (w.literal !== true || w.text.includes(PLACEHOLDER)));
    if (expanded !== undefined) sink.flag(`${quoted(shown)} of text with an expansion (${quoted(expanded.text)}), whose value is read as commands`);
  }
  for (const script of scriptArguments(base, args)) commandLine(shown, script, depth, sink);
  // Inside xargs or find a line argument holding `{}` is filled in too (`xargs -I{} sg grp {}`).
  if (LINE_ARGUMENTS.has(base)) for (const arg of args) filledLine(sink, shown, arg);
  const completion = completionRuns(base, args);
  if (completion.unreadable !== undefined) sink.flag(completion.unreadable);
  for (const line of completion.lines) sink.line(line, 'variant', depth + 1);
  const unreadable = historyRun(base, args) ?? programRun(base, args);
  if (unreadable !== undefined) sink.flag(unreadable);
  if ((base === 'alias' && args.length > 0) || (base === 'hash' && args.includes('-p'))) {
    sink.flag(`${quoted(shown)}, which can run a command under another name`);
  }
  if ((WRAPPERS.has(base) || wrapsCommand(base, args)) && suffixes) wrapperCommands(command, sink, analyse);
  if (base === 'find') whileFilled(sink, [], () => findExecs(plain, shown, depth, sink, analyse));
  if (isMake(base)) makeVariables(command, sink);
  // `npx cmd`, `npm exec -- cmd`: the command is judged from where it starts, as a wrapper's is.
  for (const start of suffixes ? packageCommandStarts(base, args) : []) {
    const started = words.slice(words.indexOf(plain[start + 1]!));
    if (!mayRead(sink, depth + 1, started)) break;
    analyse(started, 'variant', depth + 1, sink, true);
  }
}

/** Judges `line`, which `program` (its name as written) runs as commands (a `-c` string, `eval`'s words, `env -S`...). */
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
 * The words of `find ... -exec cmd {} ;` that form commands; `-delete` is judged as `rm {}`; a
 * primary's value (`-name -delete`) is neither (see `valueEnd`). A
 * word that may end the command when it runs (`"$x"`, see `execSpan`) ends it in a second
 * reading, whose later words are read as find's own (`-exec true "$x" -exec rm -rf / ;`), unless
 * find would refuse the word after it (`-exec grep "$a" -e "$b" {} +`: see `execSpan`). `shown`:
 * find's name as written (`gfind`), which the reasons quote.
 */
function findExecs(words: readonly TextWord[], shown: string, depth: number, sink: PartSink, analyse: AnalyseWords): void {
  for (let i = 0; i < words.length; i++) {
    // A primary's value is no action (`-name -delete`, `-Bnewer -exec`: a file's name): find reads it as the value.
    const value = valueEnd(words, i);
    if (value > i) {
      i = value;
      continue;
    }
    if (words[i]!.text === '-delete' && mayRead(sink, depth + 1, [])) analyse([{ ...RUNTIME_ARGUMENT, text: 'rm' }, RUNTIME_ARGUMENT], 'variant', depth + 1, sink, true);
    if (!FIND_EXEC.has(words[i]!.text)) continue;
    const { end, early } = execSpan(words, i);
    // `-execdir sh -c 'echo x > a.ts'` runs in the folder of each file found, at any depth.
    if (/dir$/.test(words[i]!.text)) sink.write({ files: [], joined: [], names: [], chdir: true });
    for (const command of early === undefined ? [words.slice(i + 1, end)] : [words.slice(i + 1, end), words.slice(i + 1, early)]) {
      // `-exec rm ;` still gets a file: find names it with `{}`, or appends it with `+`.
      const withFile = command.some((w) => w.text.includes('{}')) ? command : [...command, RUNTIME_ARGUMENT];
      const name = filledCommandName(command.map(text), (word) => word.includes('{}'), shown);
      if (name !== undefined) sink.flag(name);
      if (!mayRead(sink, depth + 1, withFile)) return;
      analyse(withFile, 'variant', depth + 1, sink, true);
    }
    i = early ?? end;
  }
}
