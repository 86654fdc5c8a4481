/**
 * The elements of a compound assignment (`m=([a]=1 [b]=2)`, `a+=(x y)`) read as the
 * assignments they are: `m[a]=1`, `a+=x`. The parser gives them as words after a `(`, which
 * would otherwise be read as a command (`[a]=1`, a name only known when it runs).
 *
 * @module
 */
import type { ParseEntry } from 'shell-quote';
import type { TextWord, Word } from './shell-words.js';

/** The array and its operator before the `(`: `m=`, `a+=`. */
const ARRAY_HEAD = /^([A-Za-z_]\w*)(\+?=)$/;
/** An element with its subscript: `[a]=1`, `[k]+=v`. */
const KEYED = /^\[[^\]]*\]\+?=/s;

/**
 * When `last` is `name=` (or `name+=`) and `entries[open]` its `(`, the assignments its
 * elements make and the index after its `)`; `undefined` when the parentheses hold anything
 * but words (an operator, a line end before the `)`), which is then read as before.
 *
 * @example
 * ```ts
 * arrayElements({ kind: 'word', text: 'm=', glob: false }, parse('m=([a]=1 x)'), 1);
 * // { words: [m[a]=1, m=x], next: 5 }
 * ```
 */
export function arrayElements(last: Word | undefined, entries: readonly ParseEntry[], open: number): { readonly words: TextWord[]; readonly next: number } | undefined {
  const head = last?.kind === 'word' && !last.glob ? ARRAY_HEAD.exec(last.text) : null;
  if (head === null || head === undefined) return undefined;
  const [, name, operator] = head;
  const words: TextWord[] = [];
  for (let i = open + 1; i < entries.length; i += 1) {
    const entry = entries[i]!;
    if (typeof entry !== 'string' && 'op' in entry && entry.op === ')') return { words: words.length > 0 ? words : [last as TextWord], next: i + 1 };
    const element = typeof entry === 'string' ? entry : 'op' in entry && entry.op === 'glob' ? entry.pattern : undefined;
    if (element === undefined) return undefined;
    // An element's value is assigned, so neither split nor expanded to file names (`a=(*)` is: `a=*` judges it as a value).
    words.push({ kind: 'word', text: KEYED.test(element) ? `${name!}${element}` : `${name!}${operator!}${element}`, glob: false });
  }
  return undefined;
}
