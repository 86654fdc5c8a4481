/**
 * mktemp's `$TMPDIR` as the line leaves it: a statement before mktemp may set it
 * (`export TMPDIR=src; mktemp`, `declare -x TMPDIR=src`, `TMPDIR=src; export TMPDIR`), and
 * mktemp then writes there, not in `/tmp`.
 *
 * @module
 */
import type { CommandWrites, WrittenWord } from './written-words.js';

/** A setting of TMPDIR as the line records it (`TMPDIR=src`; `TMPDIR=` when its value is not shown: `read TMPDIR`). */
const SETS_TMPDIR = /^TMPDIR(\+?=)(.*)$/s;
/**
 * A folder the line does not show, read as `touch "$TMPDIR/x"` is: any path. A plain assignment
 * counts as a setting (TMPDIR may have been exported before, or `set -a` exports it); an empty
 * one is read as unknown too, since a value the line does not show is recorded empty.
 */
const UNKNOWN: WrittenWord = Object.freeze({ text: '$TMPDIR', glob: false });

/**
 * `writes` with mktemp's `$TMPDIR` (see `JoinedWrite.tmpdir`) read from `settings`: the variables
 * the line set before it (each `NAME=value`, in order), the last setting of TMPDIR winning.
 *
 * @example
 * ```ts
 * withTempFolder(writes, ['TMPDIR=src']); // mktemp's file in src/ rather than /tmp/
 * ```
 */
export function withTempFolder(writes: CommandWrites, settings: readonly string[]): CommandWrites {
  if (!writes.joined.some((j) => j.tmpdir === true)) return writes;
  const found = settings.map((s) => SETS_TMPDIR.exec(s)).findLast((m): m is RegExpExecArray => m !== null);
  // `TMPDIR+=x` appends to a value the line does not show.
  const set = found === undefined ? undefined : found[1] === '=' && found[2] !== '' ? { text: found[2]!, glob: false } : UNKNOWN;
  return { ...writes, joined: writes.joined.map(({ tmpdir, ...j }) => (tmpdir === true && set !== undefined ? { ...j, dir: { ...set, changes: true } } : j)) };
}
