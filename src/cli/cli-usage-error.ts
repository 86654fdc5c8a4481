import { errnoOf } from '../errors/errno-of.js';
import { RxHarnessError } from '../errors/rxharness-error.js';

/** The command line was wrong (exit code 2); the message says what to change. */
export class CliUsageError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'CLI_USAGE';
  /** Always `CliUsageError`. */
  override readonly name = 'CliUsageError';

  constructor(message: string) {
    super(message);
  }
}

/**
 * Whether `error` says the command line was wrong (exit code 2): a {@link CliUsageError}, or
 * Node's `parseArgs` refusing a flag or an argument (an `ERR_PARSE_ARGS_*` code).
 */
export function isUsageError(error: unknown): boolean {
  return error instanceof CliUsageError || errnoOf(error)?.startsWith('ERR_PARSE_ARGS') === true;
}
