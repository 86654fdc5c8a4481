import type { ServerResponse } from 'node:http';

/** How often a stream waiting for `'drain'` asks whether its run has ended: 1 s. */
export const RUN_END_CHECK_MS = 1_000;

/**
 * For a stream that let go of its run and waits for `'drain'`: asks `runEnded` now and every
 * `checkMs`, and once the run has ended destroys `res` unless the caller cancels (on
 * `'drain'` or close) within `drainMs`. The stream hears nothing of the run while detached,
 * so without this a client that never reads again would keep its socket for ever; while the
 * run goes on it is never cut, however long it waits. Returns the cancel.
 *
 * @example
 * ```ts
 * const cancel = destroyUnlessDrainedAfterRunEnd(res, () => registry.get(runId)?.state !== 'running', 1_000, 30_000);
 * res.once('drain', () => { cancel(); follow(); });
 * ```
 */
export function destroyUnlessDrainedAfterRunEnd(res: ServerResponse, runEnded: () => boolean, checkMs: number, drainMs: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // the global timer, so a test's fake timers reach it; unref: a wait alone keeps no process alive
  const arm = (then: () => void, ms: number): void => void (timer = setTimeout(then, ms)).unref();
  const check = (): void => (ended(runEnded) ? arm(() => res.destroy(), drainMs) : arm(check, checkMs));
  check();
  return () => clearTimeout(timer);
}

/** `runEnded()`, a throw counted as ended: a check that cannot answer must not hold the socket for ever, nor throw out of a timer. */
function ended(runEnded: () => boolean): boolean {
  try {
    return runEnded();
  } catch {
    return true;
  }
}
