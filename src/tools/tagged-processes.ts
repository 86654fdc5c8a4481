import { readdirSync, readFileSync } from 'node:fs';

/**
 * The environment variable that marks every process of one bash command. Children inherit
 * it through fork, exec, `setsid` and double forks, so the command's leftovers can be found
 * even after they left its process group and session.
 */
export const COMMAND_TAG = 'RXHARNESS_COMMAND_ID';

const ROUNDS = 5;

/**
 * Sends `signal` to every live process whose environment carries `COMMAND_TAG=tag`, read
 * from `/proc/<pid>/environ` (Linux only; elsewhere nothing is found). With SIGKILL it looks
 * again, a few rounds, for children forked while it was killing.
 *
 * @returns how many processes it signalled.
 * @example
 * ```ts
 * signalTagged(tag, 'SIGKILL'); // 0 when the command left nothing behind
 * ```
 */
export function signalTagged(tag: string, signal: NodeJS.Signals): number {
  let total = 0;
  for (let round = 0; round < (signal === 'SIGKILL' ? ROUNDS : 1); round++) {
    const found = taggedPids(tag);
    for (const pid of found) {
      try {
        process.kill(pid, signal);
        total += 1;
      } catch {
        // already gone
      }
    }
    if (found.length === 0) break;
  }
  return total;
}

/** Pids of the processes (not zombies: their environ reads empty) that carry the tag. */
function taggedPids(tag: string): number[] {
  if (process.platform !== 'linux') return [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return []; // no /proc (a locked-down container): only the process group is killed
  }
  const needle = `\0${COMMAND_TAG}=${tag}\0`;
  const pids: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (`\0${readFileSync(`/proc/${entry}/environ`, 'latin1')}`.includes(needle)) pids.push(Number(entry));
    } catch {
      // another user's process, or one that just ended
    }
  }
  return pids;
}
