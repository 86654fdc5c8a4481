import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { SessionBusyError } from '../../agent/session-busy-error.js';
import type { RunHandle } from '../../runs/run-registry.js';
import type { ProtocolEngine } from '../protocol-engine.js';
import { startStreamedRun } from '../start-streamed-run.js';

/**
 * How long a new turn waits for a run of its thread that has ended (cancelled) but still
 * holds the session, in milliseconds. Closing a cancelled turn is one write to the store: a
 * file's or Redis's takes milliseconds, so this is only reached when the store hangs.
 */
export const ENDING_RUN_WAIT_MS = 5_000;

/** The pauses between tries: short at first (the write is usually done), at most 100 ms. */
const FIRST_PAUSE_MS = 5;
const LONGEST_PAUSE_MS = 100;

/**
 * Starts a new turn's run on its thread (as `startStreamedRun`), waiting for a run of the
 * thread that has ended yet still holds the session: a cancelled run gives its session back
 * only once its turn is closed in the store (its calls' "cancelled" results written), which
 * with an asynchronous store is after the cancel; the thread's next request, sent at once
 * (after `abortRun()`, or the new turn that cancels a waiting run), was refused as busy. A
 * run still running is no such wait: that request is refused (`409`) at once, as before.
 *
 * @param release The request's run slot, kept by the run (given back at its end or at a refusal).
 * @param takeSlot Takes a slot again for a later try (the refused try gave its own back);
 *   throws the `429` when none is free.
 * @throws What `startStreamedRun` throws: a `SessionBusyError` (`409`) when the thread stays
 *   busy, or is busy with a running run.
 */
export async function startOnThread(
  engine: ProtocolEngine,
  release: () => void,
  takeSlot: () => () => void,
  prompt: string,
  options: Parameters<ProtocolEngine['start']>[1],
  res: ServerResponse,
): Promise<RunHandle | undefined> {
  const giveUpAt = performance.now() + ENDING_RUN_WAIT_MS;
  let slot = release;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await startStreamedRun(engine, slot, prompt, options, res);
    } catch (error) {
      if (!heldByEndedRun(engine, error) || performance.now() + pause > giveUpAt) throw error;
    }
    await sleep(pause);
    if (res.destroyed) return undefined; // the client is gone: start nothing
    slot = takeSlot();
  }
}

/** Whether the error says the session is held by a run that is no longer running (ending). */
function heldByEndedRun(engine: ProtocolEngine, error: unknown): boolean {
  if (!SessionBusyError.isInstance(error)) return false;
  const holder = engine.runs.get(error.activeRunId);
  return holder !== undefined && holder.state !== 'running';
}
