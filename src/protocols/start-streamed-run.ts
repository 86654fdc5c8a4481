import type { ServerResponse } from 'node:http';
import { startHttpRun } from '../http/start-http-run.js';
import type { RunHandle } from '../runs/run-registry.js';
import type { ProtocolEngine } from './protocol-engine.js';

/**
 * Starts the run of a request answered with the run's own stream (the AG-UI and chat
 * routes), as `startHttpRun` does (a session still held by a run just cancelled, closing its
 * turn, is waited for, briefly: "Stop", then send again, is not refused); a client gone
 * before its turn or during that wait starts nothing (its connection's `close` ends the wait
 * at once), and one gone while its run started cancels it: no one else knows the run, so no
 * one could follow it. Resolves `undefined` in these cases.
 *
 * @example
 * ```ts
 * const run = await startStreamedRun(engine, slots.take(), prompt, { sessionId }, res);
 * if (run === undefined) return; // the client is gone
 * ```
 */
export async function startStreamedRun(
  engine: ProtocolEngine,
  release: () => void,
  prompt: string,
  options: Parameters<ProtocolEngine['start']>[1],
  res: ServerResponse,
): Promise<RunHandle | undefined> {
  const run = await startHttpRun(engine, release, prompt, options, res);
  if (run === undefined || !res.destroyed) return run;
  engine.runs.cancel(run.runId);
  return undefined;
}
