/**
 * The syntax of the wrappers whose command start `wrapper-starts` reads: their options as
 * getopt reads them (with `+`: they end at the first operand), the operands before the
 * command (timeout's duration), and the `NAME=VALUE` settings env and sudo take there.
 *
 * @module
 */

/**
 * How a long option reads: with a value (`--user root`, `--user=root`), a flag, a value only
 * after `=` (`--preserve-env=A`), one after which the wrapper runs no command (`--list`), or
 * one whose command is not read here (`--shell`, `--split-string`): then any later word may be
 * the command. Every long name a wrapper knows is listed, so that an abbreviation resolves as
 * getopt resolves it (`--logi` is ambiguous, `--login` is `--login`, not `--login-class`).
 */
export type LongKind = 'value' | 'flag' | 'optional' | 'idle' | 'unread';

/** A wrapper's syntax. Letters not listed (sudo's `-s`, `-i`, `-e`, `-h`; env's `-S`) leave the command start unknown. */
export interface Syntax {
  /** Letters taking a value (`-u root`, `-uroot`). */
  readonly valued: string;
  /** Letters taking none. */
  readonly flags: string;
  /** Letters after which it runs no command (sudo's `-l`, `-v`); jobs runs one only with `-x`. */
  readonly idle?: string;
  /** Its long names (see `LongKind`). */
  readonly long: Readonly<Record<string, LongKind>>;
  /** Operands before the command. */
  readonly operands: number;
  /**
   * Where `NAME=VALUE` settings stand: env's after its options (and a lone `-`), sudo's among
   * its options up to `--` (its getopt loop takes one whenever getopt stops at it).
   */
  readonly settings?: 'env' | 'sudo';
}

/** `{ name: kind }` for each of `names` (space-separated). */
function longs(kind: LongKind, names: string): Record<string, LongKind> {
  return Object.fromEntries(names.split(' ').map((name) => [name, kind]));
}

/** Every wrapper's `--help` and `--version`: they print and run nothing, but are kept unread, as an unknown option is. */
const INFO = longs('unread', 'help version');

/** The wrappers whose command start is known, by name. */
export const SYNTAX: Readonly<Record<string, Syntax>> = {
  timeout: { valued: 'ks', flags: 'fpv', long: { ...INFO, ...longs('value', 'kill-after signal'), ...longs('flag', 'foreground preserve-status verbose') }, operands: 1 },
  nice: { valued: 'n', flags: '', long: { ...INFO, adjustment: 'value' }, operands: 0 },
  nohup: { valued: '', flags: '', long: INFO, operands: 0 },
  // The shell's own: `exec -a NAME -cl`, `command -p` (`-v` / `-V` only print), `builtin`,
  // the keyword `time -p`. Known, so that what an xargs behind them appends is read as there.
  exec: { valued: 'a', flags: 'cl', long: INFO, operands: 0 },
  command: { valued: '', flags: 'p', idle: 'vV', long: INFO, operands: 0 },
  builtin: { valued: '', flags: '', long: INFO, operands: 0 },
  time: { valued: '', flags: 'p', long: {}, operands: 0 },
  stdbuf: { valued: 'ioe', flags: '', long: { ...INFO, ...longs('value', 'input output error') }, operands: 0 },
  setsid: { valued: '', flags: 'cfw', long: { ...INFO, ...longs('flag', 'ctty fork wait') }, operands: 0 },
  // The multi-call binaries: the first word is the applet run (`busybox sed -i s/a/b/ f` runs sed;
  // busybox reads a name with a folder by its last part, `busybox /x/rm` runs rm, which the
  // folder's check judges). busybox's `--list` prints; its `--install` makes links and `--help`
  // runs the applet with `--help`: unread, as toybox's `--long` and any other option is.
  busybox: { valued: '', flags: '', long: { ...INFO, ...longs('idle', 'list list-full'), ...longs('unread', 'install show') }, operands: 0 },
  toybox: { valued: '', flags: '', long: INFO, operands: 0 },
  // bash's `jobs -x command args` (with -r or -s too) runs the command; other options list jobs.
  jobs: { valued: '', flags: 'xrslpn', long: {}, operands: 0 },
  // GNU env. `-C DIR` is followed: env's own writes say it changes the folder (`written-files`),
  // and they are recorded before its command's. `-S` splits a string into the command: unread.
  env: {
    valued: 'uC',
    flags: 'i0v',
    long: {
      ...INFO, ...longs('value', 'unset chdir'), ...longs('flag', 'ignore-environment null debug list-signal-handling'),
      ...longs('optional', 'block-signal default-signal ignore-signal'), 'split-string': 'unread',
    },
    operands: 0,
    settings: 'env',
  },
  // sudo 1.9. Unread: `-s` / `-i` (the command goes to a shell's `-c`), `-e` (edits its operands),
  // `-h` (its host value is optional), `-K`, `-V`. `-D` / `-R` are followed as env's `-C` is.
  sudo: {
    valued: 'aCcDgpRrTtUu',
    flags: 'ABbEHkNnPS',
    idle: 'lv',
    long: {
      ...INFO,
      ...longs('value', 'auth-type close-from login-class chdir group prompt chroot role type command-timeout other-user user'),
      ...longs('flag', 'askpass bell background set-home reset-timestamp non-interactive no-update preserve-groups stdin'),
      'preserve-env': 'optional',
      ...longs('idle', 'list validate'),
      ...longs('unread', 'edit host login remove-timestamp shell'),
    },
    operands: 0,
    settings: 'sudo',
  },
};
