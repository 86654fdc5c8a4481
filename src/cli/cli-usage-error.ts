import { hasErrorMarker, RxHarnessError } from '../errors/rxharness-error.js';

const MARKER = 'rxharness.error.CliUsageError';
const SYMBOL = Symbol.for(MARKER);

/** The command line was wrong (exit code 2); the message says what to change. */
export class CliUsageError extends RxHarnessError {
  private readonly [SYMBOL] = true;
  /** Always `CliUsageError`. */
  override readonly name = 'CliUsageError';

  constructor(message: string) {
    super('CLI_USAGE', message);
  }

  /** Whether `value` is a {@link CliUsageError}, from this copy of the library or another. */
  static override isInstance(value: unknown): value is CliUsageError {
    return hasErrorMarker(value, MARKER);
  }
}
