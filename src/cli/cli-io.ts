/** Where the CLI reads and writes: the real process by default, streams in tests. */
export interface CliIO {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; hasColors?: () => boolean };
  readonly stderr: NodeJS.WritableStream;
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
    env: process.env,
    cwd: process.cwd(),
    onInterrupt(listener) {
      process.on('SIGINT', listener);
      return () => process.off('SIGINT', listener);
    },
  };
}
