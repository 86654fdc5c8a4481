/** The command line was wrong (exit code 2); the message says what to change. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}
