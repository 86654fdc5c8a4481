import { SessionBusyError } from '../../agent/session-busy-error.js';
import { isTaskSessionRefusal } from '../../engine/task-session-guard.js';
import { errorMessage } from '../../errors/error-message.js';
import { holdSlotPastRun } from '../../http/background-holds.js';
import { HttpFailure } from '../../http/http-failure.js';
import { preparedStart } from '../../http/prepared-start.js';
import { startPastEndingRun, type ClientLeft } from '../../http/start-past-ending-run.js';
import { startTries } from '../../http/start-tries.js';
import type { A2AEngine } from './a2a-handler-options.js';
import type { StartedRun } from './run-executor.js';

/**
 * Starts the run of an A2A message before the SDK sees it, so its refusals are answered as
 * HTTP says them: a run slot (`429` when `maxRuns` run), the session of its `contextId`
 * (`409` when another run holds it, here or, with a shared store, in another instance: the
 * run's first event says so), an empty prompt, a malformed context id or a delegated task's
 * session (`400`, before any run is registered: also one only the store knows, after a restart,
 * `preparedStart`). A session still held by a run that has ended (a task just cancelled with
 * `tasks/cancel`, closing its turn in the store) is waited for, briefly (`startPastEndingRun`),
 * not refused. `release` gives back the run slot the request took before its body was read (so
 * `429` was answered then): it is the run's until the run settles (and its conversation's
 * background tasks, `holdSlotPastRun`), and given back at once when none starts.
 * A client that leaves (`left`, its connection) while the start waits for an ending run starts
 * nothing (resolves `undefined`): the wait is cut short, not a started run (a task outlives its
 * stream). A try refused by another instance and tried again leaves no `failed` run (`startTries`).
 */
export async function startA2ARun(engine: A2AEngine, release: () => void, send: { readonly prompt: string; readonly contextId: string }, left?: ClientLeft): Promise<StartedRun | undefined> {
  try {
    const start = await preparedStart(engine, send.prompt, { sessionId: send.contextId }, refusal);
    const tries = startTries(engine.runs, start);
    const run = await startPastEndingRun(engine.runs, tries.attempt, left, tries.retried).catch((error: unknown) => {
      throw SessionBusyError.isInstance(error) ? busy(error) : error;
    });
    if (run === undefined) {
      release();
      return undefined;
    }
    holdSlotPastRun(engine, run, release);
    return { run, claimed: false };
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * A TypeError (an empty prompt, a malformed contextId, a delegated task's session) is the
 * message's fault: a `400`, with the advice that fits it. A task's session is a well-formed
 * contextId that no message may continue (only the conversation that delegated the task resumes it).
 */
function refusal(error: unknown): unknown {
  if (!(error instanceof TypeError)) return error;
  const advice = isTaskSessionRefusal(error)
    ? 'send it with another contextId, or none to start a new conversation'
    : 'send a text part, and a contextId that is a well-formed string';
  return new HttpFailure(400, `the message cannot run: ${error.message} (${advice})`);
}

function busy(error: unknown): HttpFailure {
  return new HttpFailure(409, `${errorMessage(error)}: the conversation of this contextId is busy; wait for its task to end (or cancel it with tasks/cancel), or use another contextId`);
}
