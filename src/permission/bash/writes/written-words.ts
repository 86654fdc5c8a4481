/**
 * The shapes of what a simple command writes, shared by the readers of each program's writes
 * (`written-files` and the modules it calls) and their users (`write-targets`, `executed-writes`),
 * and {@link anyPath}, the write of any path that leaves a line readable.
 *
 * @module
 */

/** A word of a command as the shell parser gave it. */
export interface WrittenWord {
  readonly text: string;
  readonly glob: boolean;
  /** Set when the command removes the path or changes only what it is (`rm`, `chmod`, `git restore`), not what it holds: the check of files other programs run leaves it. */
  readonly changes?: boolean;
}

/** A name that lands in a folder, or (with `why`) any path of the working tree. */
export interface JoinedWrite {
  readonly dir: WrittenWord;
  readonly name: WrittenWord;
  readonly tree: boolean;
  /** Why the command may write any path without making the line unreadable (`git checkout main`): judged by the write rules only. */
  readonly why?: string;
  /**
   * Set when `dir` is mktemp's `$TMPDIR` as the command finds it: `dir` holds what it is when
   * the line sets none, and a setting earlier on the line replaces it (see `temp-folder`).
   */
  readonly tmpdir?: true;
  /**
   * Set when `dir` starts with this variable's folder as the command finds it (`git config
   * --global`: `$HOME`, `$XDG_CONFIG_HOME/git`): a setting earlier on the line gives it, and
   * without one the write is the user's own (see `home-folder`).
   */
  readonly home?: 'HOME' | 'XDG_CONFIG_HOME';
}

/** What one simple command writes, as far as its line shows. */
export interface CommandWrites {
  /** Paths it writes: its output redirections' targets, `cp`'s destination, `tee`'s and `sed -i`'s operands, `curl -o f`... */
  readonly files: readonly WrittenWord[];
  /** Names that land in a folder: `cp a b dir` writes `dir/a` and `dir/b`, `curl -O url/x` writes `./x`. */
  readonly joined: readonly JoinedWrite[];
  /** Every other word that may name what it writes (a copy's source, a url, the folder `cd` enters): the executed-file check reads these too. */
  readonly names: readonly WrittenWord[];
  /** Why it may write paths its line does not show (`tar -x`), if it may. */
  readonly unseen?: string;
  /** Whether it changes the folder that later relative paths are read from (`cd`, `pushd`, `git -C`, `env -C`). */
  readonly chdir: boolean;
  /**
   * For a `cd` into a folder the line names plainly (`cd frontend`, `cd ./web/app`: relative, no
   * `..`, no glob or expansion): that folder, so later relative writes are also read under it
   * rather than at any depth. Absent for every other change of folder.
   */
  readonly into?: string;
}


/** A write of any path of the working tree, for the write rules only (see {@link JoinedWrite}): `why` says what makes it. */
export function anyPath(why: string): JoinedWrite {
  return { dir: { text: '.', glob: false, changes: true }, name: { text: '/', glob: false }, tree: true, why };
}

/** What a command writes when it may write any path and nothing else is known (see {@link anyPath}): `why` says what makes it. */
export function anyPathWrites(why: string): CommandWrites {
  return { files: [], joined: [anyPath(why)], names: [], chdir: false };
}
