/**
 * Limits on reading the commands that commands run (`find -exec find -exec ...`, wrappers
 * inside `find -exec`, `npx`): how deep, and how many words in all, per command line. The
 * line reader's own limit on nesting counts only command lines (`sh -c`, `$(...)`); these
 * count the commands read from another's words, which could otherwise nest as deep as the
 * line is long, or multiply (every suffix of a wrapper inside every `-exec`).
 *
 * @module
 */
import type { PartSink } from './part-sink.js';
import type { Word } from './shell-words.js';

/** As deep as the line reader's limit on nested command lines. */
const MAX_DEPTH = 8;
/** Words read in all as commands run by other commands, per line: far above any real line, low enough to stay fast. */
const MAX_WORDS = 200_000;

// Per sink, the reading of one line: words read so far as inner commands.
const spent = new WeakMap<PartSink, number>();

/**
 * Whether `words`, a command another one runs at `depth`, may still be read for `sink`.
 * When not, the line is marked unreadable, also where `sink` reads quietly: the commands not
 * read are lost, so the line must not pass as checked.
 */
export function mayRead(sink: PartSink, depth: number, words: readonly Word[]): boolean {
  const total = (spent.get(sink) ?? 0) + words.length + 1;
  spent.set(sink, total);
  if (depth <= MAX_DEPTH && total <= MAX_WORDS) return true;
  // A line judged beyond the reader's depth limit marks the whole line "nested too deeply to
  // check" even in a quiet reading, which `flag` would not.
  sink.line('', 'variant', Number.POSITIVE_INFINITY);
  return false;
}
