import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closest } from '../errors/did-you-mean.js';
import { errnoOf } from '../errors/errno-of.js';
import { errorMessage } from '../errors/error-message.js';
import { headOf } from '../text/whole-chars.js';
import { MAX_QUOTED_NAME_CHARS } from '../tools/args-validator.js';
import { CliUsageError } from './cli-usage-error.js';
import { refuseFlagsWithoutValue } from './flag-without-value.js';

/**
 * `parseArgs` for one command, whose unknown flag is bad usage (a {@link CliUsageError})
 * naming the flag the user probably meant, by the one did-you-mean rule of `closest`
 * (`--max-step`, `--maxSteps` and `--max_steps` all mean `--max-steps`), and where the
 * flags are listed. A flag without its value (followed by nothing, or by a word that starts
 * with "-", as `--port -1`: see `refuseFlagsWithoutValue`; a `secret` one's word is not
 * repeated) or given an empty one (`--host=`) is bad usage too. Other parse errors pass as
 * they are.
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
  refuseFlagsWithoutValue(config);
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
  // A flag of 10,000 characters, shown whole, would push where the flags are listed past the
  // cut of a shown error: its start is enough to recognise it.
  const shown = flag.length <= MAX_QUOTED_NAME_CHARS ? flag : `${headOf(flag, MAX_QUOTED_NAME_CHARS)}… (${flag.length} characters)`;
  if (meant !== undefined) return `unknown option ${shown}; did you mean --${meant}? (${listed})`;
  // Node's own advice, for a prompt that really starts with "-" (a cut one cannot be copied).
  const example = shown === flag ? `, as in -- "${flag}"` : '';
  const positional = config.allowPositionals ? `; an argument that starts with "-" goes after "--"${example}` : '';
  return `unknown option ${shown} (${listed})${positional}`;
}
