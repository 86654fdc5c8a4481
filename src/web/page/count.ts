/**
 * The one way the page writes a count (runs, tasks, turns, tool calls, tokens, lines,
 * characters): with thousands separators, the same in every browser's locale.
 *
 * @module
 */

/**
 * `n` with commas between its thousands (`en-US`: a German browser would write `12.345`,
 * which reads as twelve in a line of English).
 *
 * @example
 * ```ts
 * count(12_345); // '12,345'
 * ```
 */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}
