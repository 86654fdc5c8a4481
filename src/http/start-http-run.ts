import type { HarnessEngine } from '../engine/harness-engine.js';
import { requestTurn } from '../model/request-turns.js';
import type { RunHandle } from '../runs/run-registry.js';
import { holdSlotPastRun } from './background-holds.js';
import { HttpFailure } from './http-failure.js';
import { preparedStart, type PreparingEngine } from './prepared-start.js';
import { startPastEndingRun, type ClientLeft } from './start-past-ending-run.js';
import { startTries } from './start-tries.js';

/**
 * What starting a run over HTTP needs of the engine: starting runs, and the registry of started
 * runs; a HarnessEngine's `prepareStart` when it has one (a custom engine may not).
 */
type StartingEngine = Pick<HarnessEngine, 'runs'> & PreparingEngine;

/**
 * Starts a run for an HTTP request (`POST /runs`, the AG-UI and chat routes): in its turn
 * among the model requests (`requestTurn`: a burst of requests takes turns with the model
 * streams instead of holding the event loop), then `engine.start` (an empty prompt is a
 * `400`, a busy session a `409`, also one held by another instance). A session still held by
 * a run that has ended (cancelled, closing its turn in the store) is waited for, briefly
 * (`startPastEndingRun`): "Stop", then send again, is not refused. The handler's slot
 * (`release`) is kept meanwhile, and given back when the run settles (or, while its
 * conversation's background tasks still run, when they have: `holdSlotPastRun`), or at once
 * when it does not start. With `left`, a request whose client left while it waited starts nothing (no one
 * could learn the run's id) and resolves `undefined`. A try refused by another instance and
 * tried again leaves no `failed` run in `engine.runs` (`startTries`). A session id that is a
 * delegated task's is refused (`400`) before anything is registered, also one only the store
 * knows (`prepareStart`, asked once for all the tries).
 *
 * @example
 * ```ts
 * const run = await startHttpRun(engine, slots.take(), prompt, { sessionId }, () => res.destroyed);
 * if (run === undefined) return; // the client is gone
 * ```
 */
export async function startHttpRun(engine: StartingEngine, release: () => void, prompt: string, options: Parameters<HarnessEngine['start']>[1]): Promise<RunHandle>;
export async function startHttpRun(engine: StartingEngine, release: () => void, prompt: string, options: Parameters<HarnessEngine['start']>[1], left: ClientLeft): Promise<RunHandle | undefined>;
export async function startHttpRun(engine: StartingEngine, release: () => void, prompt: string, options: Parameters<HarnessEngine['start']>[1], left?: ClientLeft): Promise<RunHandle | undefined> {
  const gone = left === undefined ? undefined : typeof left === 'function' ? left : () => left.destroyed;
  try {
    await requestTurn(gone);
    const start = await preparedStart(engine, prompt, options, badRequest);
    const tries = startTries(engine.runs, start);
    const run = gone?.() === true ? undefined : await startPastEndingRun(engine.runs, tries.attempt, left, tries.retried);
    if (run === undefined) {
      release();
      return undefined;
    }
    holdSlotPastRun(engine, run, release);
    return run;
  } catch (error) {
    release();
    throw error;
  }
}

/** A TypeError (a bad prompt, session id, agent or tool) is the request's fault: a `400`. */
function badRequest(error: unknown): unknown {
  return error instanceof TypeError ? new HttpFailure(400, error.message) : error;
}
