import type { HarnessEngine } from '../engine/harness-engine.js';
import type { RunHandle } from '../runs/run-registry.js';

/**
 * What preparing a start needs of the engine: `start`, and a HarnessEngine's `prepareStart`
 * when it has one (a custom engine may not).
 *
 * Without `prepareStart` only what `start` throws is refused before a run is registered: the
 * engine shows the routes nothing else (no session store, no task tracker) to ask whether a
 * session id is a delegated task's. A HarnessEngine's `start` throws for a task it tracks, but
 * for one only its store knows (after a restart) it can only fail the run: an engine that
 * forwards `start` alone (a wrapper around a HarnessEngine) answers such an id with a started
 * run that fails with the refusal, not a `400`. Forward `prepareStart` too to have it refused.
 */
export type PreparingEngine = Pick<HarnessEngine, 'start'> & Partial<Pick<HarnessEngine, 'prepareStart'>>;

/**
 * A request's start (`startHttpRun`, `startA2ARun`): `engine.prepareStart`'s, which asks once,
 * awaiting the store, whether the session id is a delegated task's and rejects with the
 * refusal before any run is registered (also for an id only the store knows, after a
 * restart); else `engine.start` itself. Each call of the start it resolves to is one try.
 * `refused` turns a refusal, of the preparation or of a try, into the caller's answer (each
 * protocol words its `400`; a `SessionBusyError` is left for the caller's wait).
 */
export async function preparedStart(
  engine: PreparingEngine,
  prompt: string,
  options: Parameters<HarnessEngine['start']>[1],
  refused: (error: unknown) => unknown,
): Promise<() => RunHandle> {
  let start: () => RunHandle;
  try {
    start = typeof engine.prepareStart === 'function' ? await engine.prepareStart(prompt, options) : () => engine.start(prompt, options);
  } catch (error) {
    throw refused(error);
  }
  return () => {
    try {
      return start();
    } catch (error) {
      throw refused(error);
    }
  };
}
