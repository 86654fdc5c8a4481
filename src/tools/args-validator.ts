/**
 * The outcome of checking one call's arguments: the value `execute` receives (a schema with
 * a transform may change it), or a readable list of what is wrong.
 */
export type ArgsCheck =
  | { readonly problems?: undefined; readonly value: Record<string, unknown> }
  | { readonly problems: string; readonly value?: undefined };

/** Checks one call's parsed arguments. Never throws: a failure is `problems`. */
export type ArgsValidator = (args: unknown) => ArgsCheck;
