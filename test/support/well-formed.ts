/**
 * Whether `text` is whole Unicode: no lone surrogate (half of a character of two UTF-16
 * units). In `u` mode a pair reads as one code point, so `\p{Cs}` matches only a lone half.
 * (`String.prototype.isWellFormed` is Node 20's, but not in this project's TypeScript lib.)
 */
export function isWellFormed(text: string): boolean {
  return !/\p{Cs}/u.test(text);
}
