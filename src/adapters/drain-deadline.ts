import type { ServerResponse } from 'node:http';

/** How long a client has, by default, to read what is still queued once a stream has ended: 30 s. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 30_000;

/**
 * Destroys `res` (and so its socket) unless it is written out (`'finish'`) or closed within
 * `ms`. Call it once a stream's last frame is queued: a client that stopped reading would
 * otherwise keep the socket, and every byte waiting for it, for as long as it likes, since
 * Node times out neither a response being written nor its socket by default. A client that
 * reads takes the rest well within the deadline and never meets it.
 *
 * @example
 * ```ts
 * res.end('event: end\ndata: {}\n\n');
 * destroyUnlessDrained(res, DEFAULT_DRAIN_TIMEOUT_MS);
 * ```
 */
export function destroyUnlessDrained(res: ServerResponse, ms: number): void {
  if (res.writableFinished || res.destroyed) return;
  // the global timer, so a test's fake timers can reach the deadline
  const timer = setTimeout(() => res.destroy(), ms);
  // a deadline alone must not keep a process alive that has nothing else to do
  timer.unref();
  const clear = (): void => {
    clearTimeout(timer);
    res.off('finish', clear).off('close', clear);
  };
  res.on('finish', clear).on('close', clear);
}
