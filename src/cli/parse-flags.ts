import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closest } from '../errors/did-you-mean.js';
import { errnoOf } from '../errors/errno-of.js';
import { errorMessage } from '../errors/error-message.js';
import { CliUsageError } from './cli-usage-error.js';

/**
 * `parseArgs` for one command, whose unknown flag is bad usage (a {@link CliUsageError})
 * naming the flag the user probably meant, by the one did-you-mean rule of `closest`
 * (`--max-step`, `--maxSteps` and `--max_steps` all mean `--max-steps`), and where the
 * flags are listed. A flag given an empty value (`--host=`) is bad usage too. Other parse
 * errors (a flag without its value...) pass as they are.
 *
 * @param command - the command's name in messages, e.g. `run`.
 * @example
 * ```ts
 * parseFlags('run', { args: ['--max-step', '3'], options: { 'max-steps': { type: 'string' } } });
 * // CliUsageError: unknown option --max-step; did you mean --max-steps? (rxharness run --help lists them)
 * ```
 */
export function parseFlags<T extends ParseArgsConfig>(command: string, config: T): ReturnType<typeof parseArgs<T>> {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (e) {
    // Node names the flag only in its message: "Unknown option '--max-step'. To specify ...".
    const flag = errnoOf(e) === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(-[^']*)'/.exec(errorMessage(e))?.[1] : undefined;
    if (flag === undefined) throw e;
    throw new CliUsageError(unknownFlag(command, flag, config));
  }
  // An empty value is no value: `--host="$HOST"` with HOST unset would mean the default
  // silently (every interface; api.openai.com for `--base-url`; the current folder).
  for (const [name, value] of Object.entries(parsed.values as Record<string, unknown>)) {
    if (value === '' || (Array.isArray(value) && value.includes(''))) {
      throw new CliUsageError(`--${name} needs a value, got an empty one (an unset variable, as in --${name}="$UNSET"?)`);
    }
  }
  return parsed;
}

function unknownFlag(command: string, flag: string, config: ParseArgsConfig): string {
  const listed = `rxharness ${command} --help lists them`;
  // Only a long flag has a name to compare: "-x" is one letter of a short group.
  const meant = flag.startsWith('--') ? closest(flag.slice(2), Object.keys(config.options ?? {})) : undefined;
  if (meant !== undefined) return `unknown option ${flag}; did you mean --${meant}? (${listed})`;
  // Node's own advice, for a prompt that really starts with "-".
  const positional = config.allowPositionals ? `; an argument that starts with "-" goes after "--", as in -- "${flag}"` : '';
  return `unknown option ${flag} (${listed})${positional}`;
}
