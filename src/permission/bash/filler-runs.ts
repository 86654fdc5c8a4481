/**
 * How the programs that fill in their command from what they read run it: xargs, GNU
 * parallel and sem, rush, entr. One reading for all of them, so one rule holds for all: a
 * command name they fill in (`echo rm | parallel env {} y`, `ls | entr /_`) is unreadable
 * (see `filled-names`), and so is a command line they fill in (see `filled-lines`).
 *
 * @module
 */
import { filledCommandName } from './filled-names.js';
import { readParallel } from './parallel-options.js';
import { KEYWORDS } from './shell-programs.js';
import { readXargs } from './xargs-options.js';
import { quoted } from '../quoted.js';

/** Whether a word holds text a program fills in when it runs. */
export type FilledText = (word: string) => boolean;

/** How such a program runs its command. */
export interface FillerRun {
  /**
   * The commands it runs, each as its words, what it appends included (as `{}`): more than one
   * where a shell reads its words (`parallel 'echo a; {} y'`); `['{}']` where what it reads is
   * itself the command (`parallel` with no command).
   */
  readonly commands: readonly (readonly string[])[];
  /** Which words hold what it fills in: `{}`, xargs's `-I R`, parallel's `{.}`, `{1}`..., entr's `/_`. */
  readonly filled: FilledText;
}

/** A GNU parallel or rush replacement string: `{}`, `{.}`, `{/}`, `{//}`, `{/.}`, `{#}`, `{%}`, `{3}`, `{3.}`, `{+/}`, `{^suffix}`... any `{…}`, in doubt. */
const BRACED = /\{[^{}]*\}/;
/** Where a shell ends a command in the line parallel or rush hands it (quotes not read: a wrong cut only judges more). */
const COMMAND_END = /[;&|()`\n]/;
/** entr's flags (`-s`: its command is a shell's line). */
const ENTR_FLAGS = 'acdnprsxz';

/**
 * How `program` (`xargs`, `parallel`, `sem`, `rush`, `entr`) with `args` runs its command; a
 * string (why) where that cannot be known (an option not understood, code of its own).
 *
 * @example
 * ```ts
 * fillerRun('xargs', ['env']); // { commands: [['env', '{}']], filled }
 * fillerRun('parallel', ['nice', '{}', 'y', ':::', 'rm']); // { commands: [['nice', '{}', 'y', '{}']], filled }
 * ```
 */
export function fillerRun(program: string, args: readonly string[]): FillerRun | string {
  if (program === 'xargs') {
    const run = readXargs(args);
    if (typeof run === 'string') return run;
    const placeholder = run.placeholder;
    // With no command xargs runs echo.
    const words = run.command < args.length ? args.slice(run.command) : ['echo'];
    return { commands: [[...words, ...(run.appends ? ['{}'] : [])]], filled: (word) => word.includes('{}') || (placeholder !== undefined && word.includes(placeholder)) };
  }
  if (program === 'entr') return entrRun(args);
  if (program === 'rush') return shellRun(['rush', ...args], (word) => BRACED.test(word));
  const run = readParallel(args);
  if (typeof run === 'string') return run;
  const end = args.findIndex((arg, i) => i >= run.command && run.separators.includes(arg));
  const words = args.slice(run.command, end < 0 ? undefined : end);
  const perl = words.find((word) => /\{\d*=/.test(word));
  if (perl !== undefined) return `a perl expression GNU parallel evaluates (${quoted(perl)})`;
  return shellRun(words, (word) => BRACED.test(word) || run.replacements.some((r) => r !== '' && word.includes(r)));
}

/** Why a command `program` (its name as the line wrote it, which the reason quotes: `gxargs`) fills in has a name only known when it runs, or `undefined` (see {@link fillerRun}). */
export function filledName(program: string, run: FillerRun): string | undefined {
  for (const words of run.commands) {
    const name = filledCommandName(words, run.filled, program);
    if (name !== undefined) return name;
  }
  return undefined;
}

/**
 * The commands of words joined into a line a shell reads, as parallel and rush do (`parallel
 * env '{} y'` runs `env rm y`); what they read is appended to the last. No words: what they
 * read is the command.
 */
function shellRun(words: readonly string[], filled: FilledText): FillerRun {
  const commands = words.join(' ').split(COMMAND_END).map((part) => withoutKeywords(part.split(/\s+/).filter((w) => w !== '')));
  const ran = commands.filter((command) => command.length > 0);
  if (ran.length === 0) return { commands: [['{}']], filled };
  return { commands: [...ran.slice(0, -1), [...ran[ran.length - 1]!, '{}']], filled };
}

/** A command's words without the reserved words in front (`{ {} y; }`, `if {} y`). */
function withoutKeywords(words: readonly string[]): readonly string[] {
  let at = 0;
  while (at < words.length && (KEYWORDS.has(words[at]!) || words[at] === 'time')) at += 1;
  return words.slice(at);
}

/** `entr [-acdnprsxz] utility [argument /_ ...]`: `/_` is the file that changed; with `-s` the utility is a shell's line. */
function entrRun(args: readonly string[]): FillerRun | string {
  let at = 0;
  let shell = false;
  for (; at < args.length && args[at]!.startsWith('-') && args[at] !== '-'; at += 1) {
    if (args[at] === '--') {
      at += 1;
      break;
    }
    const letters = args[at]!.slice(1);
    if ([...letters].some((letter) => !ENTR_FLAGS.includes(letter))) return `entr with an option not understood (${quoted(args[at])})`;
    shell ||= letters.includes('s');
  }
  const filled: FilledText = (word) => word.includes('/_');
  if (!shell) return { commands: [args.slice(at)], filled };
  const line = shellRun(args.slice(at, at + 1), filled);
  // entr appends nothing: only the `{}` the shell's reading adds is dropped.
  return { commands: line.commands.map((words, i) => (i === line.commands.length - 1 ? words.slice(0, -1) : words)), filled };
}
