import type { ServerResponse } from 'node:http';
import { startHttpRun } from '../http/start-http-run.js';
import type { RunHandle } from '../runs/run-registry.js';
import type { ProtocolEngine } from './protocol-engine.js';

/**
 * Starts the run of a request answered with the run's own stream (the AG-UI and chat
 * routes), as `startHttpRun` does; a client gone before its turn starts nothing, and one gone
 * while its run started cancels it: no one else knows the run, so no one could follow it.
 * Resolves `undefined` in both cases.
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
  const run = await startHttpRun(engine, release, prompt, options, () => res.destroyed);
  if (run === undefined || !res.destroyed) return run;
  engine.runs.cancel(run.runId);
  return undefined;
}
