/**
 * Where the reading of a command line puts what it finds: the commands and spellings rules
 * are matched against, the reasons it cannot read a line, and what its commands write; and
 * what it hands the rules in the end ({@link CommandParts}).
 *
 * @module
 */
import type { FileRun } from './runs/run-files.js';
import type { CommandWrites } from './writes/written-files.js';

/** How a part of a command line is judged: a `command` must be allowed; a `variant` is only checked against deny and ask rules. */
export type PartRole = 'command' | 'variant';

/** Where `analyseStatement` puts what it finds. */
export interface PartSink {
  /** Records a simple command (normalised text) or another spelling of one. */
  add(role: PartRole, text: string): void;
  /** Marks the line as too complex to judge, saying why. */
  flag(reason: string): void;
  /**
   * Notes what makes bash run text of the line as code (`evaluates`: arithmetic, a subscript...)
   * or may bring a command into that text (`carries`: a quoted `$(`, a value read at run time).
   * Only both together make the line too complex to judge (see `code-in-data`).
   */
  note(kind: 'evaluates' | 'carries', what: string): void;
  /**
   * Judges a command line that a command runs (a `sh -c` string, what `eval` gets). `quiet`:
   * it only may be one (a wrapper's argument with spaces), so what it cannot read is no reason to flag the line.
   */
  line(text: string, role: PartRole, depth: number, quiet?: boolean): void;
  /** Records a command whose arguments are only known when it runs, as a pattern (see `commandShape`): deny and ask rules that could match it hold. */
  shape(text: string): void;
  /** Marks the line as one that may run a command again or later (a loop, `trap`, `fc`): a `cd` then moves every write. */
  repeats(): void;
  /** Records what a simple command writes (see `written-files`), for the user's write and edit rules. */
  write(writes: CommandWrites): void;
  /** Records a program that runs files of the workspace by name (`make`, `npm`): a write of one on the same line makes it unreadable. */
  runs(run: FileRun): void;
  /**
   * Records variables set for the line's later commands (`export CC='rm v'`, `CC=x; export CC`):
   * make reads its variables from the environment, so when the line runs make each value is judged
   * as the command a recipe's `$(CC)` may make of it (see `make-runs`).
   */
  environment(assignments: readonly string[]): void;
}

/** What a bash rule is matched against, for one command line. */
export interface CommandParts {
  /**
   * Each simple command of the line, as written with quotes removed and whitespace
   * collapsed (`git commit -m "a b"` is `git commit -m a b`), including the commands inside
   * `$(...)`, backticks and `<(...)`. An allow rule must allow every one of them.
   */
  readonly commands: readonly string[];
  /**
   * Other spellings a deny or ask rule is also matched against: the line exactly as
   * written, each command without its assignments, redirections and binary folder
   * (`/bin/rm x` is `rm x`), and the commands inside wrappers (`sudo`, `env`, `timeout`...),
   * `sh -c` / `bash -c` strings, `eval` and `find -exec`.
   */
  readonly variants: readonly string[];
  /**
   * Commands whose arguments are only known when they run (`git pu${x}sh`, `git pus?`), as
   * patterns with those parts as wildcards (`git pu*sh`): a deny or ask rule that could
   * match one of them (some text fits both) holds for the line. Absent when there are none.
   */
  readonly shapes?: readonly string[];
  /** Set when the line cannot be fully judged (a command name in a variable, a here-document...): why. */
  readonly opaque?: string;
  /**
   * What its commands write, as the line shows it (see `written-files`), for the user's
   * write and edit rules (`write-rules`). Absent when no command writes anything.
   */
  readonly writes?: readonly CommandWrites[];
  /**
   * Set when the line, or a line it runs (`eval`, `sh -c`, a trap's action), may run a command
   * again or later than it stands (a loop, a function, `trap`, `fc`): a `cd` anywhere on it
   * may then move every write, not only those after it.
   */
  readonly repeats?: true;
  /** The programs on the line that run files of the workspace by name (`make`, `npm`...), when there are any (see `run-files`). */
  readonly runs?: readonly FileRun[];
}
