import { MCP_UNASKED_BYTES_MAX, MCP_UNASKED_BYTES_WINDOW_MS, unaskedBytesWindow } from './mcp-byte-window.js';

/** How much of a server's stderr is kept for its diagnostics, in characters. */
const TAIL_CHARS = 1000;
// The bytes those characters are decoded from: UTF-8 takes at most 4 bytes a character.
const TAIL_BYTES = 4 * TAIL_CHARS;

/** A stdio server's stderr as it is read: each chunk taken, and the end of it in words. */
export interface StderrTail {
  /** Takes a chunk the server wrote. */
  take(chunk: Buffer | string): void;
  /** The last 1,000 characters it wrote, trimmed. */
  text(): string;
}

/**
 * Keeps the end of a stdio server's stderr, for the reason it failed: of each chunk only its
 * last bytes are kept, and they are decoded only when asked for. Each chunk (64 KiB) was
 * decoded whole and joined to the tail, and a server writing stderr as fast as the pipe took
 * it kept an idle engine 73% busy for as long as it ran. Its bytes are also counted as a
 * stdio server's unasked stdout is ({@link MCP_UNASKED_BYTES_MAX} within
 * {@link MCP_UNASKED_BYTES_WINDOW_MS}): past that, `flood` is told why, once (the connection
 * should then be closed, which stops reading it).
 *
 * @example
 * ```ts
 * const stderr = stderrTail((why) => closeBecause(why));
 * child.stderr.on('data', stderr.take);
 * stderr.text(); // 'Error: cannot open database'
 * ```
 */
export function stderrTail(flood: (problem: string) => void): StderrTail {
  let kept = Buffer.alloc(0);
  const withinBytes = unaskedBytesWindow();
  let flooded = false;
  return {
    take(chunk) {
      const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      // Copied, so the chunk itself is not held.
      kept = data.length >= TAIL_BYTES ? Buffer.from(data.subarray(-TAIL_BYTES)) : Buffer.concat([kept.subarray(-(TAIL_BYTES - data.length)), data]);
      if (flooded || withinBytes(data.length)) return;
      flooded = true;
      flood(`it wrote more than ${MCP_UNASKED_BYTES_MAX / 1024 / 1024} MiB to stderr within ${MCP_UNASKED_BYTES_WINDOW_MS / 1000} s`);
    },
    text() {
      // The kept bytes may start within a character: what decodes to U+FFFD there is dropped.
      return kept.toString('utf8').slice(-TAIL_CHARS).replace(/^\uFFFD+/, '').trim();
    },
  };
}
