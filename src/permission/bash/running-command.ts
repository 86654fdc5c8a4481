import type { PartRole, PartSink } from './part-sink.js';
import type { TextWord, Word } from './shell-words.js';

/** Reads words as a simple command (`analyseWords`); `suffixes`: a wrapper's later words may start the command. */
export type AnalyseWords = (words: readonly Word[], role: PartRole, depth: number, sink: PartSink, suffixes: boolean) => void;

/** A simple command as `innerCommands` reads it. */
export interface RunningCommand {
  /** Its name without the binary's folder, as the checks know it (`xargs` for `gxargs`: see `commandBase`). */
  readonly base: string;
  /** Its name as the line wrote it, without the folder (see `shownName`): the one its reasons quote. */
  readonly shown: string;
  /** Its words as written, redirections included. */
  readonly words: readonly Word[];
  /** The command's name and arguments (see `plainWords`). */
  readonly plain: readonly TextWord[];
  /** How deep in command lines run by other commands it is (see `commandParts`). */
  readonly depth: number;
  /** Whether it is read where a command starts, so a wrapper's later words are tried as the command. */
  readonly suffixes: boolean;
}
