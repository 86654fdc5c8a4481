/**
 * How many bytes of lines that answer no request of ours (notifications, requests, junk) a
 * stdio server may write within {@link MCP_UNASKED_BYTES_WINDOW_MS}; more closes the
 * connection (its stderr counts against the same bound, apart). The notification counts
 * (`mcp-notification-guard.ts`) let a server write a 10 MiB line of junk every few
 * milliseconds: each is decoded and parsed, and one every 50 ms held the event loop all but
 * still. What a server says unasked is a few small lines; answers are bounded by what we ask.
 */
export const MCP_UNASKED_BYTES_MAX = 50 * 1024 * 1024;

/** The window {@link MCP_UNASKED_BYTES_MAX} counts over. */
export const MCP_UNASKED_BYTES_WINDOW_MS = 10_000;

/**
 * Counts the bytes a stdio server writes that nobody asked for (unasked stdout lines, stderr)
 * over windows of {@link MCP_UNASKED_BYTES_WINDOW_MS}: the returned function adds `size` and
 * says whether the window is still within {@link MCP_UNASKED_BYTES_MAX}. One counter for
 * both streams' bounds, so they cannot drift apart.
 *
 * @example
 * ```ts
 * const within = unaskedBytesWindow();
 * if (!within(chunk.length)) closeBecause('it wrote too much');
 * ```
 * @internal
 */
export function unaskedBytesWindow(): (size: number) => boolean {
  let start = Number.NEGATIVE_INFINITY;
  let bytes = 0;
  return (size) => {
    const now = Date.now();
    if (now - start >= MCP_UNASKED_BYTES_WINDOW_MS) {
      start = now;
      bytes = 0;
    }
    return (bytes += size) <= MCP_UNASKED_BYTES_MAX;
  };
}
