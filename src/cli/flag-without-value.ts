import type { ParseArgsConfig } from 'node:util';
import { MAX_QUOTED_NAME_CHARS } from '../tools/args-validator.js';
import { CliUsageError } from './cli-usage-error.js';

/** Node's config of one flag (`util` exports no name for it). */
type NodeFlagConfig = NonNullable<ParseArgsConfig['options']>[string];

/**
 * A flag of a command's `parseArgs` table, with what its messages need to know. Node reads
 * `type`, `multiple` and `short`, and passes over the other keys.
 */
export interface FlagConfig extends NodeFlagConfig {
  /** Its value may be a secret (a token, a key, a URL holding a password): no message repeats it. */
  readonly secret?: boolean;
  /** The variable that gives the value instead, named in its messages, e.g. `RXHARNESS_TOKEN`. */
  readonly env?: string;
}

/**
 * Throws a {@link CliUsageError} for the first string-valued flag of `config.options` that is
 * followed by nothing, or by a word that starts with "-": Node reads that word as another flag
 * and refuses in three lines of its own, which say neither which word nor how to give a value
 * such as `-1` or a token starting with "-" (`--port=-1`). The word is quoted unless the flag
 * is `secret`.
 *
 * @example
 * ```ts
 * refuseFlagsWithoutValue({ args: ['--port', '-1'], options: { port: { type: 'string' } } });
 * // CliUsageError: --port needs a value, but the word after it, "-1", starts with "-", so it reads as another flag: ...
 * ```
 */
export function refuseFlagsWithoutValue(config: ParseArgsConfig): void {
  const args = config.args ?? [];
  const options = (config.options ?? {}) as Readonly<Record<string, FlagConfig>>;
  const byShort = new Map(Object.entries(options).flatMap(([name, o]) => (o.short !== undefined ? [[o.short, name] as const] : [])));
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    // After "--" every word is an argument, even one that looks like a flag.
    if (word === '--') return;
    // `--name=value` carries its own value; `-x` is a lone short flag (a group is left to Node).
    const name = word.startsWith('--') ? word.slice(2) : /^-[^-]$/.test(word) ? byShort.get(word.slice(1)) : undefined;
    const option = name !== undefined && Object.hasOwn(options, name) ? options[name] : undefined;
    if (option?.type !== 'string') continue;
    const next = args[i + 1];
    // Node takes the next word as the value, and refuses it when it looks like a flag ("-" alone is a value).
    if (next !== undefined && (next === '-' || !next.startsWith('-'))) {
      i += 1;
      continue;
    }
    throw new CliUsageError(withoutValue(name!, option, next));
  }
}

function withoutValue(name: string, option: FlagConfig, next: string | undefined): string {
  const flag = `--${name}`;
  // Never quoted: the word after a secret's flag (it may be the secret), nor a flag carrying
  // its own value (`--model --api-key=sk-...`, from an empty `$MODEL`: the value may be a secret).
  const quotable = next !== undefined && !option.secret && !next.includes('=') && next.length <= MAX_QUOTED_NAME_CHARS;
  const shown = quotable ? next : undefined;
  const why =
    next === undefined
      ? 'nothing follows it'
      : `the word after it${shown !== undefined ? `, "${shown}",` : ''} starts with "-", so it reads as another flag`;
  const instead = option.env !== undefined ? `, or set ${option.env} instead` : '';
  // "--" is no flag but the end of them: `--max-steps=--` would be no value either.
  if (next === '--') return `${flag} needs a value, but "--" follows it, which ends the flags: give it as ${flag} V before "--", one that starts with "-" as ${flag}=-V${instead}`;
  return `${flag} needs a value, but ${why}: give it as ${flag} V, one that starts with "-" as ${flag}=${shown ?? '-V'}${instead}`;
}
