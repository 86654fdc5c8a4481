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
