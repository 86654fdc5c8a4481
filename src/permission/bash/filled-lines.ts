/**
 * Command lines filled in when a command runs: `xargs`, `parallel` or `find -exec` put what
 * they read (a file name, a line of input) where `{}` stands, or after the command, so a
 * shell's `-c` string there (`xargs sh -c`, `xargs -I{} sh -c {}`, `find -exec sh -c {} \;`)
 * is text the line does not show.
 *
 * @module
 */
import type { FilledText } from './filler-runs.js';
import type { PartSink } from './part-sink.js';
import { commandFlag, EVALUATORS, LINE_ARGUMENTS, SHELLS } from './shell-programs.js';
import { PLACEHOLDER } from './shell-scan.js';
import { basename, type TextWord } from './shell-words.js';
import { quoted } from '../quoted.js';

// Per sink, which text the commands that fill in their command's words around the current one
// put text in place of: `{}` always, and each one's own (`sudo xargs -I% sh -c %`, parallel's `{.}`).
const filling = new WeakMap<PartSink, FilledText[]>();
const BRACES: FilledText = (text) => text.includes('{}');

/** Runs `read` (the reading of a command `xargs`, `find -exec`, `parallel`... fills in) with `sink` marked as inside ones filling in what `filled` tell too. */
export function whileFilled(sink: PartSink, filled: readonly FilledText[], read: () => void): void {
  const stack = filling.get(sink) ?? [];
  filling.set(sink, stack);
  const added = [BRACES, ...filled];
  stack.push(...added);
  try {
    read();
  } finally {
    stack.length -= added.length;
  }
}

/**
 * Flags in `sink` a command line `program` gets (`line`: its `-c` string, `env -S` value, line
 * argument; `undefined`: an option without its value) when it is missing, or, inside xargs or
 * find, holds the `{}` or `-I` placeholder they replace with what they read: bash would run
 * that text as commands.
 */
export function filledLine(sink: PartSink, program: string, line: string | undefined): void {
  if (line === undefined) sink.flag(`${quoted(program)} with a command option but no command line`);
  else if (filling.get(sink)?.some((filled) => filled(line))) {
    sink.flag(`a command line for ${quoted(program)} that xargs, parallel or find fill in when it runs (${quoted(line)})`);
  }
}

/**
 * Whether `plain[index]`, a wrapper's word tried as the command it runs, is instead the quoted
 * `-c` string of a shell before it (`xargs -n1 sh -c 'echo "$0"'`), judged as that shell's line:
 * its quoted `$` is no run-time command name. Not where a word before it hands words to a shell,
 * which expands them again (`watch`, `parallel`, `sudo -s`, `bash -i`).
 */
export function shellStringAt(plain: readonly TextWord[], index: number): boolean {
  const word = plain[index]!;
  if (word.literal !== true || word.glob || word.text.includes(PLACEHOLDER)) return false;
  const before = plain.slice(0, index).map((w) => w.text);
  if (before.some((arg) => LINE_ARGUMENTS.has(basename(arg)) || EVALUATORS.has(basename(arg)) || /^-[A-Za-z]*[si]|^--(?:shell|login)$/.test(arg))) return false;
  // Right after the shell's options, one of them -c (`sh -c`, `bash -ec`).
  const options = before.slice(before.findLastIndex((arg) => !arg.startsWith('-')) + 1);
  const shell = before[before.length - options.length - 1];
  return shell !== undefined && SHELLS.has(basename(shell)) && commandFlag(options) >= 0;
}
