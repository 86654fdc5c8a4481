import { quotedClip } from '../text/quoted-clip.js';

/**
 * The outcome of checking one call's arguments: the value `execute` receives (a schema with
 * a transform may change it), or a readable list of what is wrong.
 */
export type ArgsCheck =
  | { readonly problems?: undefined; readonly value: Record<string, unknown> }
  | { readonly problems: string; readonly value?: undefined };

/** Checks one call's parsed arguments. Never throws: a failure is `problems`. */
export type ArgsValidator = (args: unknown) => ArgsCheck;

/**
 * Problems a check's message lists at most; the rest are counted. A model's list of 50,000
 * wrong items (100 KB) made a 1.5 MB message, which the model reads back in every later
 * request of its conversation.
 */
export const MAX_LISTED_PROBLEMS = 10;

/**
 * Characters of a key or path a problem quotes at most, quotes and escapes included: a
 * model's key may be a megabyte long, and the message goes back into every later request of
 * its conversation.
 */
export const MAX_QUOTED_NAME_CHARS = 120;

/**
 * A key or path as a problem quotes it: JSON-quoted (a `"` or a line break in it shows
 * escaped, so the name reads as one quoted string, never as the message's own words), whole
 * up to {@link MAX_QUOTED_NAME_CHARS} characters, else its start and its end with how many
 * characters were cut between them, still inside the quotes.
 *
 * @example
 * ```ts
 * quotedName('path'); // '"path"'
 * quotedName('a"\nb'); // '"a\\"\\nb"'
 * ```
 */
export function quotedName(name: string): string {
  return quotedClip(name, MAX_QUOTED_NAME_CHARS);
}

/**
 * `problems` as one message: joined by `; `, the first {@link MAX_LISTED_PROBLEMS} of them,
 * then how many more there are.
 *
 * @example
 * ```ts
 * listProblems(['"a" must be string', '"b" must be string']); // '"a" must be string; "b" must be string'
 * ```
 */
export function listProblems(problems: readonly string[]): string {
  if (problems.length <= MAX_LISTED_PROBLEMS) return problems.join('; ');
  const more = problems.length - MAX_LISTED_PROBLEMS;
  return `${problems.slice(0, MAX_LISTED_PROBLEMS).join('; ')}; and ${more} more problem${more === 1 ? '' : 's'}`;
}
