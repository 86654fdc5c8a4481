import { firstValueFrom, type Observable } from 'rxjs';
import { SessionBusyError } from '../agent/session-busy-error.js';

/**
 * Waits for the run's first event and throws the `SessionBusyError` of a run refused before
 * it: one whose session another instance holds (a store shared across processes answers
 * the claim after `start` returned), so it is a `409` like a refusal in this process.
 */
export async function refusedElsewhere(run: { readonly events$: Observable<unknown>; readonly result: Promise<unknown> }): Promise<void> {
  const failure = await firstValueFrom(run.events$).then(
    () => undefined,
    () => run.result.then(() => undefined, (error: unknown) => error), // the run's own error, not the log's copy
  );
  if (SessionBusyError.isInstance(failure)) throw failure;
}
