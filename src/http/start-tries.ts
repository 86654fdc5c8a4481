import type { RunHandle, RunRegistry } from '../runs/run-registry.js';
import { refusedElsewhere } from './refused-elsewhere.js';

/** The tries of one start, as {@link startTries} makes them. */
export interface StartTries {
  /** One try: `start()`, then its refusal by another instance, if any (`refusedElsewhere`). */
  attempt(): Promise<RunHandle>;
  /** The last try's refusal is not the answer (it is tried again, or its client left): its run is forgotten. */
  retried(): void;
}

/**
 * The tries of one start for `startPastEndingRun`. A try refused by another instance (a
 * shared store answers the claim after `engine.start` returned) leaves its run registered,
 * `failed`; a wait tries up to every 100 ms for 5 s, so each retried refusal's run is
 * forgotten (`discardRefused`): `engine.runs` (`GET /runs`, the serve page) keeps at most the
 * refusal that is answered (a `409`), as before the wait. A refusal in this process leaves
 * no run (it is thrown by `start`).
 */
export function startTries(runs: Pick<RunRegistry, 'discardRefused'>, start: () => RunHandle): StartTries {
  let refused: RunHandle | undefined;
  return {
    attempt: async () => {
      refused = undefined;
      const run = start();
      try {
        await refusedElsewhere(run);
      } catch (error) {
        refused = run;
        throw error;
      }
      return run;
    },
    retried: () => {
      if (refused !== undefined) runs.discardRefused(refused.runId);
      refused = undefined;
    },
  };
}
