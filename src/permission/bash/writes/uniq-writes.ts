/**
 * What `uniq` writes: its second operand is its output file (`uniq in out`), past the values of
 * `-f`, `-s`, `-w` (`--group` and `--all-repeated` take a value only after `=`). A word only
 * known when it runs moves which operand that is: split (`x='/dev/null src/a'; uniq $x`, a glob
 * `src/*`, what xargs reads) it may be both operands, and one quoted word may be an option
 * (`o=-c; uniq "$o" in src/a`), so each operand after the first may be the output.
 *
 * @module
 */
import { operandsOf, runTimeOptionWord } from '../option-values.js';
import { isRunTime, maySplitIntoOption, type TextWord } from '../shell-words.js';
import type { WrittenWord } from './written-words.js';

/** A word of uniq's line, with the marks the readers of run-time words ask (see `shell-words`). */
type Word = WrittenWord & Partial<Pick<TextWord, 'literal' | 'input' | 'quoted' | 'pattern'>>;

/** uniq's short and long options taking the next word as their value. */
const VALUED: readonly [string, readonly string[]] = ['fsw', ['skip-fields', 'skip-chars', 'check-chars']];

/**
 * The files `uniq` with `args` writes (see the module).
 *
 * @example
 * ```ts
 * const w = (text: string) => ({ text, glob: false });
 * uniqWrites([w('-c'), w('in'), w('out')]); // [w('out')]
 * uniqWrites([w('src/a')]); // []: it only reads
 * ```
 */
export function uniqWrites<W extends Word>(args: readonly W[]): W[] {
  const { operands } = operandsOf(args, ...VALUED);
  const hidden = runTimeOptionWord(args);
  // Split into several words, a run-time word (or any operand that splits) may make each shown operand the output.
  if ((hidden !== undefined && maySplitIntoOption(hidden)) || operands.some((a) => a.quoted !== true && isRunTime(a))) return operands;
  return hidden === undefined ? operands.slice(1, 2) : operands.slice(1);
}
