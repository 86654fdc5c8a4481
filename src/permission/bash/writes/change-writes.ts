/**
 * Commands that remove files or change them without writing content: `rm`, `rmdir`,
 * `unlink`, `shred`, `touch`, `mkdir`, `mkfifo`, `mknod`, `mktemp`, `chmod`, `chown`, `chgrp`, `truncate`, and `find`
 * with `-delete` (any path under its start points) or `-fprint` / `-fprintf` / `-fls` (the
 * file it prints to). For the user's write rules removing or changing a file is writing it,
 * as the write tool's rules would judge it; the check of files other programs run leaves the
 * removals and changes alone (`rm -f .git/index.lock` runs nothing), not what `find` prints.
 *
 * @module
 */
import { execSpan, valueEnd } from '../find-exec.js';
import { operandsOf } from '../option-values.js';
import { FIND_EXEC } from '../shell-programs.js';
import { mayBeOption, maySplitIntoOption, type TextWord } from '../shell-words.js';
import { tempFolder } from './temp-folder.js';
import type { CommandWrites, JoinedWrite, WrittenWord } from './written-words.js';
import { quoted } from '../../quoted.js';

/** The options taking a value, by program (short letters, long names); the other programs' operands are all written. */
const VALUED: Readonly<Record<string, readonly [string, readonly string[]]>> = {
  rm: ['', []],
  rmdir: ['', []],
  unlink: ['', []],
  shred: ['ns', ['iterations', 'size', 'random-source']],
  touch: ['drt', ['date', 'reference', 'time']],
  // GNU's `-Z` takes no value and `--context` only with `=` (so do cp's, mv's and install's): the next word is a file.
  mkdir: ['m', ['mode']],
  mkfifo: ['m', ['mode']],
  mknod: ['m', ['mode']],
  mktemp: ['p', ['suffix']],
  truncate: ['rs', ['reference', 'size']],
  chmod: ['', ['reference']],
  chown: ['', ['reference', 'from']],
  chgrp: ['', ['reference']],
};

/** The programs {@link changeWrites} reads. */
export const CHANGERS: ReadonlySet<string> = new Set([...Object.keys(VALUED), 'find']);
/** Programs whose first operand is a mode or an owner, unless `--reference` gives it. */
const SETTERS = new Set(['chmod', 'chown', 'chgrp']);
/** A tree named by a name ending in `/`: the folder with anything in it. */
const ANY_NAME: WrittenWord = Object.freeze({ text: '/', glob: false });
/** find's actions that write the file their next word names. */
const PRINTS_TO = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);

/**
 * What `base` (one of {@link CHANGERS}) with `args` removes, changes or writes (see the module);
 * `assignments`: those in front of it (`TMPDIR=src mktemp`).
 */
export function changeWrites(base: string, args: readonly WrittenWord[], assignments: readonly string[] = []): Pick<CommandWrites, 'files' | 'joined' | 'unseen'> {
  if (base === 'find') return findWrites(args);
  if (base === 'mktemp') return mktempWrites(args, assignments);
  const [short, long] = VALUED[base]!;
  let operands = base === 'chmod' ? chmodOperands(args) : operandsOf(args, short, long).operands;
  if (SETTERS.has(base) && !args.some((a) => a.text.startsWith('--ref'))) operands = operands.slice(1);
  // `mknod f p`, `mknod f c 1 3`: only the first is a file.
  if (base === 'mknod') operands = operands.slice(0, 1);
  // truncate's file keeps being read as any write (its size is content); the others' paths are changes only.
  const changed = base === 'truncate' ? operands : operands.map((a) => ({ ...a, changes: true }));
  // `rm -r`, `chmod -R`, `shred`: a folder with all it holds.
  const tree = (base === 'rm' || SETTERS.has(base)) && args.some((a) => /^-[A-Za-z]*[rR]|^--rec/.test(a.text));
  return tree ? { files: [], joined: changed.map((dir) => ({ dir, name: ANY_NAME, tree: true })) } : { files: changed, joined: [] };
}

/**
 * mktemp's file: its template (`tmp.XXXXXXXXXX` when none is given) with the last run of `X`s
 * any name (`secret/a.XXXX` is `secret/a.*`). A template alone is a path; with `-p dir` /
 * `--tmpdir=dir` it lands in that folder; with no template, or `-t` / `--tmpdir` and no folder,
 * in `$TMPDIR` or `/tmp`. `$TMPDIR` is the user's, outside the workspace as `/tmp` is, and judged
 * as `/tmp` (as `touch /tmp/x` is), unless the command sets it (`TMPDIR=src mktemp`; `TMPDIR+=x`
 * or an empty value: any path) or the line did before (`export TMPDIR=src; mktemp`: see
 * `temp-folder`); `-t` takes it before `-p dir`, so then both folders are judged.
 */
function mktempWrites(args: readonly WrittenWord[], assignments: readonly string[]): Pick<CommandWrites, 'files' | 'joined'> {
  const template = operandsOf(args, 'p', ['suffix']).operands[0];
  const name = { ...(template ?? { glob: false }), text: (template?.text ?? 'tmp.XXX').replace(/X{3,}(?=[^X/]*$)/, '*'), glob: true, changes: true };
  let dir: WrittenWord | undefined;
  let temp = template === undefined;
  let byT = false;
  for (let i = 0; i < args.length && args[i]!.text !== '--'; i += 1) {
    const text = args[i]!.text;
    const short = /^-[dqtu]*p(.*)$/.exec(text);
    if (short !== null) dir = short[1] === '' ? args[(i += 1)] : { ...args[i]!, text: short[1]! };
    else if (/^--t[a-z]*=/.test(text)) dir = { ...args[i]!, text: text.slice(text.indexOf('=') + 1) };
    else if (/^--t[a-z]*$/.test(text)) temp = true;
    else if (/^-[dqu]*t/.test(text)) temp = byT = true;
    else if (/^--s[a-z]*$/.test(text)) i += 1;
  }
  // An empty folder (`-p ''`) is none: mktemp takes `$TMPDIR` then.
  const given = dir === undefined || dir.text === '' ? undefined : dir;
  if (given === undefined && !temp) return { files: [name], joined: [] };
  const joined = (d: WrittenWord, tmpdir = false): JoinedWrite => ({ dir: { ...d, changes: true }, name, tree: false, ...(tmpdir ? { tmpdir: true as const } : {}) });
  // `TMPDIR+=src mktemp` appends to a value the line does not show: any path, as `temp-folder` reads it.
  const tmpdir = tempFolder(assignments);
  if (tmpdir !== undefined) {
    return { files: [], joined: (given === undefined ? [tmpdir] : byT ? [given, tmpdir] : [given]).map((d) => joined(d)) };
  }
  // `$TMPDIR` as the line leaves it: `/tmp`, or with `-t` the folder given, unless set earlier on the line.
  if (given === undefined) return { files: [], joined: [joined({ text: '/tmp', glob: false }, true)] };
  return { files: [], joined: byT ? [joined(given), joined(given, true)] : [joined(given)] };
}

/** chmod's operands: a mode may look like an option (`chmod -w f`), so only its known options are left out. */
function chmodOperands(args: readonly WrittenWord[]): WrittenWord[] {
  const operands: WrittenWord[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const text = args[i]!.text;
    if (/^--ref[a-z]*$/.test(text)) i += 1;
    else if (!/^-[Rcfv]+$|^--/.test(text)) operands.push(args[i]!);
  }
  return operands;
}

/**
 * `find`'s writes: `-fprint f` and its kin write `f` (content it chooses: `-fprintf f fmt`),
 * `-delete` removes any path under its start points (the words before its first expression,
 * or `.`). Only find's own words count: not a primary's value (`-name -delete`), not the words
 * of the command `-exec` runs (`-exec echo -delete ;`), but those after a word that may end that
 * command when it runs (see `execSpan`), which find may read as its own.
 */
function findWrites(args: readonly WrittenWord[]): Pick<CommandWrites, 'files' | 'joined' | 'unseen'> {
  const files: WrittenWord[] = [];
  let deletes = false;
  for (let i = 0; i < args.length; i += 1) {
    const text = args[i]!.text;
    const value = valueEnd(args, i);
    if (PRINTS_TO.has(text) && value > i) files.push(args[i + 1]!);
    deletes ||= text === '-delete';
    if (FIND_EXEC.has(text)) {
      const { end, early } = execSpan(args, i);
      i = early ?? end;
    } else i = value;
  }
  const unknown = unknownFindWord(args);
  if (unknown !== undefined) return { files, joined: [], unseen: `a word only known when it runs (${quoted(unknown)}), which may be an option of find that runs a command or writes any path` };
  if (!deletes) return { files, joined: [] };
  let i = 0;
  // Its own options come first: `-H`, `-L`, `-P`, `-D debug`, `-O3`.
  while (i < args.length && /^-(?:[HLP]+|D|O\d*)$/.test(args[i]!.text)) i += args[i]!.text === '-D' ? 2 : 1;
  const starts: WrittenWord[] = [];
  for (; i < args.length && !/^[-(!),]/.test(args[i]!.text); i += 1) starts.push(args[i]!);
  const roots = starts.length > 0 ? starts : [{ ...(args[0] ?? { glob: false }), text: '.' }];
  return { files, joined: roots.map((dir) => ({ dir: { ...dir, changes: true }, name: ANY_NAME, tree: true })) };
}

/**
 * Whether a word is one quoted word of a variable and a fixed `/` (`"$HOME/x"`): no primary of
 * find, as `-delete/x` is unknown to it (`quoted`: each expansion is a variable's value, `"${x/a/b}"` none).
 */
function fixedPath(arg: WrittenWord & Pick<TextWord, 'pattern' | 'quoted'>): boolean {
  if (arg.quoted !== true || arg.glob || arg.pattern === true) return false;
  return /^\$[A-Za-z_]\w*\//.test(arg.text);
}

/**
 * A word of find's only known when it runs where a start point, an option or a test or action
 * stands: find reads a start point starting with `-` as its expression, so `-delete`, `-exec rm
 * -rf y ;` or `-fprint f` may come of it. A value (`-name "$x"`) or a word of the command `-exec`
 * runs counts only unquoted, where it splits into more words or a glob matches several
 * (`-name $x` with `x='a -delete'`; `-exec echo $x ;` with `x='a ; -delete -exec echo'` ends the
 * command early). Past a quoted word of that command which may be its `;` (`-exec echo "$x" "$y" ;`,
 * see `execSpan`) the words are read as find's own too: `"$y"` may be `-delete`; not past one
 * a fixed word find refuses follows (`-exec grep "$a" -e "$b" +`: then find runs nothing).
 */
function unknownFindWord(args: readonly (WrittenWord & Pick<TextWord, 'literal' | 'input' | 'pattern' | 'quoted'>)[]): string | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (mayBeOption(arg) && !fixedPath(arg)) return arg.text;
    const from = i + 1;
    const value = valueEnd(args, i);
    if (value > i) i = value;
    else if (FIND_EXEC.has(arg.text)) {
      const { end, early } = execSpan(args, i);
      i = early ?? end - 1;
    }
    const split = args.slice(from, i + 1).find((value) => maySplitIntoOption(value));
    if (split !== undefined) return split.text;
  }
  return undefined;
}
