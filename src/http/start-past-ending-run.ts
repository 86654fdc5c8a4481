import { SessionBusyError } from '../agent/session-busy-error.js';
import type { RunRegistry } from '../runs/run-registry.js';

/**
 * How long a start waits for a run that has ended (cancelled) but still holds the session,
 * in milliseconds. Closing a cancelled turn is one write to the store: a file's or Redis's
 * takes milliseconds, so this is only reached when the store hangs.
 */
export const ENDING_RUN_WAIT_MS = 5_000;

/** The pauses between tries: short at first (the write is usually done), at most 100 ms. */
const FIRST_PAUSE_MS = 5;
const LONGEST_PAUSE_MS = 100;

/** A client's connection (a `ServerResponse`): gone once `destroyed`, and it says so at once (`close`). */
export interface ClientConnection {
  readonly destroyed: boolean;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

/**
 * How a waiting start learns that its client has gone: asked between tries (a predicate such
 * as `() => res.destroyed`, noticed within a pause, at most 100 ms), or told at once by the
 * connection's `close` (the pause's timer is then cleared, nothing is left behind).
 */
export type ClientLeft = (() => boolean) | ClientConnection;

/**
 * Tries `attempt` (one start of a run) again while it is refused with a `SessionBusyError`
 * whose holder is a run of `runs` that is no longer running: a cancelled run gives its session
 * back only once its turn is closed in the store (its calls' "cancelled" results written),
 * which with an asynchronous store (a file, Redis) is after the cancel, so the session's next
 * request, sent at once ("Stop", then send again), found it busy. The tries are paused,
 * briefly at first, for at most {@link ENDING_RUN_WAIT_MS} in all; then the last refusal is
 * thrown. A session held by a run still running, or by one `runs` does not know (evicted, or
 * of an instance whose runs it does not share), is refused at once, as before. With `left`, a client gone during a pause ends
 * the wait: nothing more is tried, and it resolves `undefined`. `retried` is called for each
 * refusal that is not the answer (tried again, or its client left), before the pause: a try
 * refused by another instance left a run to forget (`startTries`).
 *
 * @example
 * ```ts
 * const run = await startPastEndingRun(engine.runs, async () => engine.start(prompt, { sessionId }), res);
 * if (run === undefined) return; // the client is gone
 * ```
 */
export async function startPastEndingRun<T>(runs: Pick<RunRegistry, 'get'>, attempt: () => Promise<T>): Promise<T>;
export async function startPastEndingRun<T>(runs: Pick<RunRegistry, 'get'>, attempt: () => Promise<T>, left: ClientLeft | undefined, retried?: () => void): Promise<T | undefined>;
export async function startPastEndingRun<T>(runs: Pick<RunRegistry, 'get'>, attempt: () => Promise<T>, left?: ClientLeft, retried?: () => void): Promise<T | undefined> {
  const giveUpAt = performance.now() + ENDING_RUN_WAIT_MS;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await attempt();
    } catch (error) {
      if (!heldByEndedRun(runs, error) || performance.now() + pause > giveUpAt) throw error;
    }
    retried?.();
    if (!(await paused(pause, left))) return undefined;
  }
}

/** Whether the error says the session is held by a run that is no longer running (ending). */
function heldByEndedRun(runs: Pick<RunRegistry, 'get'>, error: unknown): boolean {
  if (!SessionBusyError.isInstance(error)) return false;
  const holder = runs.get(error.activeRunId);
  return holder !== undefined && holder.state !== 'running';
}

/** Waits `ms`; resolves whether the client is still there (`false` at once when its connection closes, its timer cleared). */
function paused(ms: number, left: ClientLeft | undefined): Promise<boolean> {
  const connection = typeof left === 'object' ? left : undefined;
  if (connection?.destroyed === true) return Promise.resolve(false);
  return new Promise((resolve) => {
    const settle = (stays: boolean): void => {
      clearTimeout(timer);
      connection?.off('close', gone);
      resolve(stays);
    };
    const gone = (): void => settle(false);
    const timer = setTimeout(() => settle(typeof left === 'function' ? !left() : connection?.destroyed !== true), ms);
    connection?.once('close', gone);
  });
}
