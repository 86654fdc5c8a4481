/**
 * Writes by a bash line into files other programs execute (`.git/hooks/*`, `.git/config`,
 * `.vscode/tasks.json`, `.npmrc`...) or into `.rxharness/`: the `write` and `edit` tools
 * ask for these paths by default, since what is written there runs later without asking
 * (`echo 'rm -rf x' > .git/hooks/pre-commit`, then an allowed `git commit`). What such a
 * write will run is not on the line, so the line is one the checker cannot read.
 *
 * @module
 */
import { commandShape } from './command-shape.js';
import { EXECUTED_FILE_PATTERNS } from './default-rules.js';
import { mayGlobExecuted } from './executed-globs.js';
import { patternsOverlap } from './pattern-overlap.js';

/** The names in `EXECUTED_FILE_PATTERNS`, without their leading and trailing `**` (the folder `.git`, the file `.npmrc`). */
const NAMES = EXECUTED_FILE_PATTERNS.map((pattern) => pattern.replace(/^\*\*\//, '').replace(/\/\*\*$/, ''));
/** Folders whose files other programs run, and `.rxharness/` (agent definitions: the defaults ask for it by a rule of its own). */
const EXECUTED_FOLDERS = [...NAMES.filter((_, i) => EXECUTED_FILE_PATTERNS[i]!.endsWith('/**')), '.rxharness'];
/** Single files other programs run. */
const EXECUTED_FILES = NAMES.filter((_, i) => !EXECUTED_FILE_PATTERNS[i]!.endsWith('/**'));
/**
 * The same as command patterns (`*` crosses `/`), at any depth: a path is read as a shape, so a
 * target only known at run time (`> $F`, `> $(…)/config`) is caught when it could be one of them.
 */
const PATTERNS: readonly string[] = [
  ...EXECUTED_FOLDERS.flatMap((d) => [d, `${d}/*`, `*/${d}`, `*/${d}/*`]),
  ...EXECUTED_FILES.flatMap((f) => [f, `*/${f}`]),
];
/** Programs whose every operand may be written: the destination, and for copies and moves the source's name too (`cp -r x/.git .`). */
const COPIERS = new Set(['cp', 'mv', 'ln', 'link', 'install', 'rsync', 'tee']);
/** Programs whose options or operands may name the file they download or sort into (`curl -o f`, `wget url/.npmrc`, `sort -o f`). */
const FETCHERS = new Set(['curl', 'wget', 'sort']);
const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk']);
/** An option's name in front of its value (`--output=`, `-o`, `-t`): what follows may be the path. */
const OPTION_NAME = /^-{1,2}[A-Za-z-]*=?/;
/** `sed` edits its file operands in place with `-i`. */
const IN_PLACE = /^(?:-[A-Za-z]*i.*|--in-place(?:=.*)?)$/s;
/** git options whose value is a file or folder git writes: `diff --output=f`, `format-patch -o dir`, `archive -o f`. */
const GIT_OUTPUT_LONG = ['output', 'output-directory'];

/** A word of a command as the shell parser gave it. */
export interface WrittenWord {
  readonly text: string;
  readonly glob: boolean;
}

/**
 * Why a simple command writes a file other programs execute, or `undefined`.
 *
 * @param base - the program's name without its folder.
 * @param args - its arguments (redirections dropped).
 * @param targets - the targets of its output redirections (`>`, `>>`, `&>`, `<>`...).
 *
 * @example
 * ```ts
 * const w = (text: string) => ({ text, glob: false });
 * executedWrite('echo', [w('x')], [w('.git/hooks/pre-commit')]); // 'a write to a file other programs run (".git/hooks/pre-commit")'
 * executedWrite('git', [w('diff'), w('--output=.npmrc')], []); // 'a write to ... (".npmrc")'
 * executedWrite('echo', [w('hi')], [w('out.txt')]); // undefined
 * ```
 */
export function executedWrite(base: string, args: readonly WrittenWord[], targets: readonly WrittenWord[]): string | undefined {
  const written = [...targets, ...writtenOperands(base, args)].find(mayBeExecuted);
  return written === undefined ? undefined : `a write to a file other programs run ("${written.text}"), which may run a command the line does not show`;
}

/** The arguments of `base` that name a file it writes (or, for `cd`, the folder later writes land in). */
function writtenOperands(base: string, args: readonly WrittenWord[]): WrittenWord[] {
  const operands = args.filter((a) => !a.text.startsWith('-') || a.text === '-');
  if (COPIERS.has(base) || FETCHERS.has(base)) return args.map((a) => ({ ...a, text: a.text.replace(OPTION_NAME, '') }));
  if (base === 'sed') return [...(args.some((a) => IN_PLACE.test(a.text)) ? operands : []), ...sedWrites(args)];
  // awk's `print > "f"` writes the file its program names; gawk's `-i inplace` edits its operands.
  if (AWKS.has(base)) {
    const named = args.flatMap((a) => [...a.text.matchAll(/"([^"]*)"/g)].map((m) => ({ ...a, text: m[1]! })));
    return [...named, ...(args.some((a) => a.text.includes('inplace')) ? operands : [])];
  }
  if (base === 'dd') return args.filter((a) => a.text.startsWith('of=')).map((a) => ({ ...a, text: a.text.slice(3) }));
  // `cd .git/hooks && echo x > pre-commit`: a folder of these, entered by name or by a shape (`cd .gi?`).
  if ((base === 'cd' || base === 'pushd') && operands[0] !== undefined) return [operands[0]];
  if (base === 'git') return gitWritten(args);
  return [];
}

/** The files named by sed's `w` and `W` commands and `s///w` flags: each runs to the end of its line; in doubt any `w` counts (they overlap, so a later one is seen too). */
function sedWrites(args: readonly WrittenWord[]): WrittenWord[] {
  return args.flatMap((a) => [...a.text.matchAll(/[wW](?=[ \t]*([^\n]+))/g)].map((m) => ({ ...a, text: m[1]!.trim() })));
}

/** What git writes by its output options, and the folder `git worktree add` checks files out into. */
function gitWritten(args: readonly WrittenWord[]): WrittenWord[] {
  const out: WrittenWord[] = [];
  const texts = args.map((a) => a.text);
  const worktree = texts.indexOf('worktree');
  if (worktree >= 0 && texts[worktree + 1] === 'add') out.push(...args.slice(worktree + 2).filter((a) => !a.text.startsWith('-')));
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const long = /^--([A-Za-z-]{3,})(?:=(.*))?$/s.exec(arg.text);
    // git takes an unambiguous abbreviation (`--outp=f`); in doubt any prefix counts.
    if (long !== null && GIT_OUTPUT_LONG.some((name) => name.startsWith(long[1]!))) {
      const value = long[2] ?? args[i + 1]?.text;
      if (value !== undefined) out.push({ ...arg, text: value });
    } else if (/^-o./s.test(arg.text)) out.push({ ...arg, text: arg.text.slice(2) });
    else if (arg.text === '-o' && args[i + 1] !== undefined) out.push(args[i + 1]!);
  }
  return out;
}

/**
 * Whether a path, as written or with its run-time parts as wildcards, may name one of these
 * files (in any letter case: some file systems ignore it). A word that is only a glob is read
 * as the shell reads it (see `executed-globs`); one with `$`, a substitution or braces may be
 * any text, and is read as a command pattern (`*` crosses `/` and matches a leading dot).
 */
function mayBeExecuted(word: WrittenWord): boolean {
  if (onlyGlob(word)) return mayGlobExecuted(word.text, EXECUTED_FOLDERS, EXECUTED_FILES);
  const shape = (commandShape('', [word]) ?? word.text.replace(/[\\{}*?[\]()!@+]/g, (c) => `\\${c}`)).toLowerCase();
  if (shape === '') return false;
  return PATTERNS.some((pattern) => patternsOverlap(pattern, shape));
}

/** Whether a word's only run-time part is a glob (`*`, `?`, `[...]`): no `$`, substitution or brace expansion. */
function onlyGlob(word: WrittenWord): boolean {
  const glob = word.glob || /\[[^\]]+\]/.test(word.text);
  return glob && !word.text.includes('$') && !/\{[^{}]*(?:,|\.\.)[^{}]*\}/.test(word.text) && !word.text.startsWith('~');
}
