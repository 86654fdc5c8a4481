/**
 * mktemp's `$TMPDIR` as the line leaves it: a statement before mktemp may set it
 * (`export TMPDIR=src; mktemp`, `declare -x TMPDIR=src`, `TMPDIR=src; export TMPDIR`), as may
 * one in front of a command that runs mktemp (`TMPDIR=src nice mktemp`, `TMPDIR=src bash -c
 * mktemp`), and mktemp then writes there, not in `/tmp`.
 *
 * @module
 */
import { runTimeName } from '../run-time-names.js';
import type { CommandWrites, WrittenWord } from './written-words.js';

/** A setting of TMPDIR as the line records it (`TMPDIR=src`; `TMPDIR=` when its value is not shown: `read TMPDIR`). */
const SETS_TMPDIR = /^TMPDIR(\+?=)(.*)$/s;
/**
 * A folder the line does not show, read as `touch "$TMPDIR/x"` is: any path. A plain assignment
 * counts as a setting (TMPDIR may have been exported before, or `set -a` exports it); an empty
 * one is read as unknown too, since a value the line does not show is recorded empty.
 */
const UNKNOWN: WrittenWord = Object.freeze({ text: '$TMPDIR', glob: false });
/** A setting of TMPDIR that the line may make, with a value not shown, marked as {@link frontSettings} marks one. */
const UNKNOWN_SETTING = '=TMPDIR=';

/**
 * The settings of TMPDIR among `assignments` in front of a command (`TMPDIR=src nice mktemp`), as
 * kept with the line's settings: marked (a name starting with `=`, which no shell or make variable
 * has, so make's reading of them skips it), since such a setting holds only where that command
 * runs mktemp, which is not tracked: its folder is judged besides the one the line's own settings leave.
 *
 * @example
 * ```ts
 * frontSettings(['TMPDIR=src', 'LC_ALL=C']); // ['=TMPDIR=src']
 * ```
 */
export function frontSettings(assignments: readonly string[]): string[] {
  return assignments.filter((a) => SETS_TMPDIR.test(a)).map((a) => `=${a}`);
}

/**
 * The settings of TMPDIR a name reference makes (`declare -n r=TMPDIR`, see `referenceTargets`):
 * every later assignment of the reference (`r=src`, `export r=src`) sets TMPDIR, which is not
 * tracked, so one with a value not shown, marked as {@link frontSettings} marks its settings:
 * judged besides whatever the line's own settings leave. A target not shown (a reference set
 * later, `declare -n r; r=TMPDIR`, or built: `declare -n r=$v`) may be TMPDIR too.
 *
 * @example
 * ```ts
 * referenceSettings(['TMPDIR']); // ['=TMPDIR=']
 * referenceSettings(['PATH']); // []
 * ```
 */
export function referenceSettings(targets: readonly string[]): string[] {
  return targets.some((name) => name === 'TMPDIR' || !/^[A-Za-z_]\w*$/.test(name)) ? [UNKNOWN_SETTING] : [];
}

/**
 * The settings of TMPDIR that `words` (a declarer's operands: `export $v=src`, `declare "$v"`;
 * or names a command sets: `read $v` as `$v=`) may make: one whose variable's name is only known
 * when the line runs (see `runTimeName`) may be TMPDIR (`v=TMPDIR; export $v=src; mktemp` makes
 * its file in src/). Which it is is not tracked, so a value not shown, marked as {@link
 * frontSettings} marks its settings: judged besides whatever the line's own settings leave.
 *
 * @example
 * ```ts
 * runTimeSettings(['$v=src']); // ['=TMPDIR=']
 * runTimeSettings(['X=1']); // []
 * ```
 */
export function runTimeSettings(words: readonly string[]): string[] {
  return words.some(runTimeName) ? [UNKNOWN_SETTING] : [];
}

/** The folder one setting (`TMPDIR=src`) gives; `TMPDIR+=x` appends to a value the line does not show. */
function folderOf(found: RegExpExecArray): WrittenWord {
  return found[1] === '=' && found[2] !== '' ? { text: found[2]!, glob: false } : UNKNOWN;
}

/**
 * The folder the last setting of TMPDIR among `settings` (each `NAME=value`, in order) leaves,
 * read as {@link folderOf} reads one (`TMPDIR+=src` any path), or `undefined` when none sets it.
 *
 * @example
 * ```ts
 * tempFolder(['TMPDIR=src', 'X=1']); // { text: 'src', glob: false }
 * tempFolder(['TMPDIR+=src']); // { text: '$TMPDIR', glob: false }: any path
 * ```
 */
export function tempFolder(settings: readonly string[]): WrittenWord | undefined {
  const found = settings.map((s) => SETS_TMPDIR.exec(s)).findLast((m): m is RegExpExecArray => m !== null);
  return found === undefined ? undefined : folderOf(found);
}

/**
 * `writes` with mktemp's `$TMPDIR` (see `JoinedWrite.tmpdir`) read from `settings`: the variables
 * the line set before it (each `NAME=value`, in order), the last setting of TMPDIR winning; and
 * every folder set in front of a command (see {@link frontSettings}) judged too (a deny of any wins).
 *
 * @example
 * ```ts
 * withTempFolder(writes, ['TMPDIR=src']); // mktemp's file in src/ rather than /tmp/
 * ```
 */
export function withTempFolder(writes: CommandWrites, settings: readonly string[]): CommandWrites {
  if (!writes.joined.some((j) => j.tmpdir === true)) return writes;
  const set = tempFolder(settings);
  const front = settings.flatMap((s) => (s.startsWith('=') ? [SETS_TMPDIR.exec(s.slice(1))] : [])).filter((m): m is RegExpExecArray => m !== null).map(folderOf);
  return {
    ...writes,
    joined: writes.joined.flatMap(({ tmpdir, ...j }) => {
      if (tmpdir !== true) return [j];
      const own = set === undefined ? j : { ...j, dir: { ...set, changes: true } };
      return [own, ...front.map((dir) => ({ ...j, dir: { ...dir, changes: true } }))];
    }),
  };
}
