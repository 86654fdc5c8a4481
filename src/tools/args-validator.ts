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
