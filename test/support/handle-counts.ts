/**
 * Leak checks over the process's active handles: the timers and sockets of
 * {@link resourceCounts}, plus child processes and their pipes. Also a probe for whether a
 * pid is still alive.
 *
 * @module
 */
import { resourceCounts } from './active-resources.js';

/** The handle kinds watched: timers, sockets, servers, child processes, pipes. */
export type HandleCounts = Readonly<Record<string, number>>;

const PROCESS_KINDS: readonly string[] = ['ProcessWrap', 'PipeWrap'];

/** How many handles of each watched kind are active now. */
export function handleCounts(): HandleCounts {
  const counts: Record<string, number> = { ...resourceCounts() };
  for (const kind of PROCESS_KINDS) counts[kind] = 0;
  for (const kind of process.getActiveResourcesInfo()) if (PROCESS_KINDS.includes(kind)) counts[kind]! += 1;
  return counts;
}

/**
 * The watched handles above `baseline`, once they had time to close: a socket is released
 * a turn or two after it closes, a killed process and its pipes when the OS reports the
 * exit. Checks on every turn of the event loop, then every few milliseconds, and returns
 * as soon as nothing is above the baseline, or what is still there after `timeoutMs`.
 */
export async function leakedHandles(baseline: HandleCounts, timeoutMs = 3_000): Promise<Record<string, number>> {
  const deadline = Date.now() + timeoutMs;
  for (let turn = 0; ; turn++) {
    const now = handleCounts();
    const extra: Record<string, number> = {};
    for (const [kind, count] of Object.entries(now)) if (count > (baseline[kind] ?? 0)) extra[kind] = count - (baseline[kind] ?? 0);
    if (Object.keys(extra).length === 0 || Date.now() >= deadline) return extra;
    // A fired timer is no longer active, so the wait itself does not show up in the next count.
    await new Promise<void>((resolve) => (turn < 50 ? setImmediate(resolve) : setTimeout(resolve, 10)));
  }
}

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}
