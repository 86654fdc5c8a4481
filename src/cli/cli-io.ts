/** Where the CLI reads and writes: the real process by default, streams in tests. */
export interface CliIO {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; hasColors?: () => boolean };
  readonly stderr: NodeJS.WritableStream;
  /** Where approvals are answered; asked only when it is a terminal (`isTTY`). */
  readonly stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Subscribes to Ctrl+C; returns the unsubscribe. */
  onInterrupt(listener: () => void): () => void;
}

/** The real process's streams, environment and SIGINT. */
export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // A getter: process.stdin opens the handle, which only an approval question needs.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
    onInterrupt(listener) {
      process.on('SIGINT', listener);
      return () => process.off('SIGINT', listener);
    },
  };
}
