/**
 * Writes by a bash line into files other programs execute (`.git/hooks/*`, `.git/config`,
 * `.vscode/tasks.json`, `.npmrc`...) or into `.rxharness/`: the `write` and `edit` tools
 * ask for these paths by default, since what is written there runs later without asking
 * (`echo 'rm -rf x' > .git/hooks/pre-commit`, then an allowed `git commit`). What such a
 * write will run is not on the line, so the line is one the checker cannot read.
 *
 * @module
 */
import { commandShape } from '../command-shape.js';
import { EXECUTED_FILE_PATTERNS } from '../../default-rules.js';
import { foldCase } from '../../fold-case.js';
import { mayGlobExecuted } from '../runs/executed-globs.js';
import { patternsOverlap } from '../../pattern-overlap.js';
import type { CommandWrites, WrittenWord } from './written-words.js';
import { quoted } from '../../quoted.js';

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
/**
 * Why a simple command writes a file other programs execute, or `undefined`: any path it
 * writes, any name that lands in a folder it writes to, and any other word that may name
 * what it writes (a copy's source: `cp -r x/.git .`; the folder `cd` enters) counts; a path
 * only removed or changed in mode or times (`rm`, `chmod`, `git restore`) does not.
 *
 * @param writes - what the command writes, as `commandWrites` read it.
 *
 * @example
 * ```ts
 * const w = (text: string) => ({ text, glob: false });
 * executedWrite(commandWrites('echo', [w('x')], [w('.git/hooks/pre-commit')])); // 'a write to a file other programs run (".git/hooks/pre-commit")...'
 * executedWrite(commandWrites('git', [w('diff'), w('--output=.npmrc')], [])); // 'a write to ... (".npmrc")...'
 * executedWrite(commandWrites('echo', [w('hi')], [w('out.txt')])); // undefined
 * ```
 */
export function executedWrite(writes: CommandWrites): string | undefined {
  // `git config --global` in a HOME the line does not set (see `home-folder`) writes the user's own file, outside the workspace.
  const words = [...writes.files, ...writes.joined.flatMap((j) => (j.home !== undefined ? [] : [j.dir, j.name])), ...writes.names];
  // A removal or a change of mode (`rm -f .git/index.lock`) puts no command there.
  const written = words.find((word) => word.changes !== true && mayBeExecuted(word));
  return written === undefined ? undefined : `a write to a file other programs run (${quoted(written.text)}), which may run a command the line does not show`;
}

/**
 * Whether a path, as written or with its run-time parts as wildcards, may name one of these
 * files (in any letter case, folded as a file system that ignores it folds: `.vſcode` is
 * `.vscode`). A word that is only a glob is read as the shell reads it (see `executed-globs`);
 * one with `$`, a substitution or braces may be any text, and is read as a command pattern
 * (`*` crosses `/` and matches a leading dot).
 */
function mayBeExecuted(written: WrittenWord): boolean {
  const word = underHome(written);
  if (onlyGlob(word)) return mayGlobExecuted(word.text, EXECUTED_FOLDERS, EXECUTED_FILES);
  const shape = foldCase(commandShape('', [word]) ?? word.text.replace(/[\\{}*?[\]()!@+]/g, (c) => `\\${c}`));
  if (shape === '') return false;
  return PATTERNS.some((pattern) => patternsOverlap(pattern, shape));
}

/**
 * A word starting with `~` or `~/` as a path in the home folder: an absolute folder whose own
 * name is none of these (`cd ~` enters no `.git`; `~/.git/hooks` still is one). `~` is `$HOME`,
 * but a line changing HOME anywhere (`HOME=.git; cd ~`, `read HOME`, in a function run later)
 * is unreadable already (`codeVariable`), so here it is the home the line was given. `~+`,
 * `~-`, `~N` (`$PWD`, `$OLDPWD`, the folder stack) and `~user` stay known only at run time.
 */
function underHome(word: WrittenWord): WrittenWord {
  return /^~(?:\/|$)/.test(word.text) ? { ...word, text: `${HOME}${word.text.slice(1)}` } : word;
}

/** Where {@link underHome} puts the home folder: any absolute folder named by no pattern would do. */
const HOME = '/~home';

/** Whether a word's only run-time part is a glob (`*`, `?`, `[...]`): no `$`, substitution or brace expansion. */
function onlyGlob(word: WrittenWord): boolean {
  const glob = word.glob || /\[[^\]]+\]/.test(word.text);
  return glob && !word.text.includes('$') && !/\{[^{}]*(?:,|\.\.)[^{}]*\}/.test(word.text) && !word.text.startsWith('~');
}
