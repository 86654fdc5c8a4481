import { headOf, tailOf } from './whole-chars.js';

/**
 * `text` at most `max` characters long (`max` of 80 or more): its start and its end, with a
 * marker between them saying how much was cut, so a reader (the model) knows a part is missing.
 *
 * @example
 * ```ts
 * clipMiddle('a'.repeat(1_000), 100); // 'aaa... [... 940 characters cut ...] ...aaa' (100 characters at most)
 * ```
 */
export function clipMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  // 40 characters for the marker: " [... N characters cut ...] " is 27 plus N's digits.
  const half = Math.floor((max - 40) / 2);
  const head = headOf(text, half);
  const tail = tailOf(text, half);
  return `${head} [... ${text.length - head.length - tail.length} characters cut ...] ${tail}`;
}
