import { ignoreElements, lastValueFrom, takeWhile, timeout } from 'rxjs';
import { SessionBusyError } from '../../agent/session-busy-error.js';
import { AbortError } from '../../errors/abort-error.js';
import { HttpFailure } from '../../http/http-failure.js';
import { ENDING_RUN_WAIT_MS } from '../../http/start-past-ending-run.js';
import type { RunHandle } from '../../runs/run-registry.js';
import type { ProtocolEngine } from '../protocol-engine.js';
import type { AgUiRequest } from './run-agent-input.js';
import { AgUiMapper } from './ag-ui-mapper.js';
import { FrontendCalls } from './frontend-calls.js';
import { waitPointOf } from './wait-points.js';
import type { AgUiRunState } from './waiting-threads.js';

/**
 * How long the run's log is read for the `HITLPending` events of its waiting approvals. They
 * are in it already (an approval waits after its event is appended), so only a log that
 * stalls reaches this; then the thread is treated as having no run waiting (a `409` follows).
 */
const REPLAY_WAIT_MS = 5_000;

/**
 * The run of an AG-UI thread that waits for approvals at another instance sharing this one's
 * backend (a load balancer sent the thread's next request here, docs/scaling.md): the
 * thread's session's running run, not one to `skip`, with approvals pending. Its state is rebuilt
 * from its events up to the `HITLPending` of the last of them (the mapper then knows the
 * messages and calls the client was shown), with those approvals as its interrupts, so the
 * request is handled as a local one would be: `resume` answers them (through `engine.runs`,
 * which reaches the owner) and the continuation streams here; a new turn cancels it. A run
 * that waits for a frontend tool's result is not found (its wait is known only where it
 * runs): `undefined`, as for a thread with no run waiting. What the previous AG-UI run showed
 * after that `HITLPending` is known only where it ran, and is shown again: only an instance
 * that saw the approval asked before it learned it waited shows anything after it (the
 * *Limits* of docs/scaling.md).
 */
export async function waitingElsewhere(engine: ProtocolEngine, threadId: string, toolCallIds: Iterable<string>, skip: (runId: string) => boolean): Promise<AgUiRunState | undefined> {
  const info = engine.runs.list({ sessionId: threadId }).reverse().find((run) => run.state === 'running' && !skip(run.runId));
  if (info === undefined) return undefined;
  const pending = pendingOf(engine, info.runId);
  if (pending.size === 0) return undefined;
  const state: AgUiRunState = { run: remoteHandle(engine, info.runId, threadId), mapper: new AgUiMapper(undefined, toolCallIds), calls: new FrontendCalls(), frontendTools: new Set(), after: 0, interrupts: new Set(), notes: [], held: [] };
  const unseen = new Set(pending);
  const replay = engine.runs.attach(info.runId).pipe(
    takeWhile(({ seq, event }) => {
      state.after = seq;
      state.mapper.map(event); // what the client was shown: only the mapper's memory of it is wanted
      const interrupt = waitPointOf(event, state);
      if (interrupt !== undefined) unseen.delete(interrupt.id);
      return unseen.size > 0;
    }, true),
    timeout(REPLAY_WAIT_MS),
    ignoreElements(),
  );
  try {
    await lastValueFrom(replay, { defaultValue: undefined });
  } catch {
    return undefined; // the run was cancelled or failed meanwhile, or its log stalled: nothing to continue
  }
  if (unseen.size > 0) return undefined; // the run ended meanwhile
  for (const approvalId of pending) state.interrupts.add(approvalId);
  return state;
}

/**
 * A handle on another instance's run: its `result` (read only when a new turn cancels the
 * run) rejects once this instance sees it ended, or after `ENDING_RUN_WAIT_MS`, so the new
 * turn's start never waits on a record that does not come.
 */
function remoteHandle(engine: ProtocolEngine, runId: string, sessionId: string): RunHandle {
  let ended: Promise<never> | undefined;
  return {
    runId,
    sessionId,
    events$: engine.runs.attach(runId),
    get result() {
      return (ended ??= new Promise<never>((_resolve, reject) => {
        const settle = (): void => {
          clearTimeout(timer);
          stop();
          reject(new AbortError(new Error('the run was cancelled')));
        };
        const timer = setTimeout(settle, ENDING_RUN_WAIT_MS);
        timer.unref();
        const stop = engine.runs.watchApprovals(runId, () => engine.runs.get(runId)?.state !== 'running' && settle());
        if (engine.runs.get(runId)?.state !== 'running') settle();
      }));
    },
    cancel: () => void engine.runs.cancel(runId),
  };
}

/**
 * Whether a parked run still waits for what its last AG-UI run showed: a frontend call, or an
 * approval still pending. One whose approvals were all answered at another instance (the
 * thread's next request went there) is not this instance's to cancel when its wait times out.
 */
export function stillWaitsFor(engine: ProtocolEngine, state: AgUiRunState): boolean {
  if (state.calls.asked().length > 0 || state.interrupts.size === 0) return true;
  const pending = pendingOf(engine, state.run.runId);
  return [...state.interrupts].some((approvalId) => pending.has(approvalId));
}

/**
 * Whether the request answers approvals of a parked run that this instance never showed but
 * that wait in it: another instance continued the run (the thread's last request went there)
 * and showed them, so this instance's state of the run is stale and is rebuilt.
 */
export function continuedElsewhere(engine: ProtocolEngine, state: AgUiRunState, input: AgUiRequest): boolean {
  const pending = pendingOf(engine, state.run.runId);
  return input.resume.some((entry) => !state.interrupts.has(entry.interruptId) && pending.has(entry.interruptId));
}

/** The ids of the approvals waiting in the run. */
function pendingOf(engine: ProtocolEngine, runId: string): Set<string> {
  return new Set(engine.runs.pendingApprovals(runId).map((approval) => approval.approvalId));
}

/**
 * A thread's new turn refused as busy while no run of it waits here, explained: its run may
 * wait for its client at another instance, in a wait this one cannot answer (a frontend
 * tool's result), so the thread's requests must reach one instance. Any other error as it is.
 */
export function busyElsewhere(error: unknown): unknown {
  if (!SessionBusyError.isInstance(error)) return error;
  return new HttpFailure(
    409,
    `${error.message} If this AG-UI thread's run waits for its client at another instance (a frontend tool's result), only that instance can continue it: ` +
      'route each thread\'s requests to one instance (sticky routing by threadId, see docs/scaling.md), or wait for the run to end.',
  );
}
