import type { HarnessEngine } from '../engine/harness-engine.js';
import { HttpFailure } from '../http/http-failure.js';
import { refusedElsewhere } from '../http/refused-elsewhere.js';
import { requestTurn } from '../model/request-turns.js';
import type { RunHandle } from '../runs/run-registry.js';

/** What a protocol handler needs of the engine: starting runs, and the registry of started runs. */
export type ProtocolEngine = Pick<HarnessEngine, 'start' | 'runs'>;

/**
 * Starts a run for a protocol request, as `POST /runs` does: in its turn among the model
 * requests (`requestTurn`), then `engine.start` (an empty prompt
 * is a `400`, a busy session a `409`, also one held by another instance), the handler's slot
 * (`release`) given back when the run settles, or at once when it does not start.
 */
export async function startProtocolRun(engine: ProtocolEngine, release: () => void, prompt: string, options: Parameters<HarnessEngine['start']>[1]): Promise<RunHandle> {
  try {
    // A burst of requests takes turns with the model streams, as POST /runs does (request-turns.ts).
    await requestTurn();
    let run: RunHandle;
    try {
      run = engine.start(prompt, options);
    } catch (error) {
      throw error instanceof TypeError ? new HttpFailure(400, error.message) : error;
    }
    run.result.then(release, release);
    await refusedElsewhere(run);
    return run;
  } catch (error) {
    release();
    throw error;
  }
}
