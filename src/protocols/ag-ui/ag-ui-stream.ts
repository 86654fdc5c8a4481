import type { ServerResponse } from 'node:http';
import type { AGUIEvent, Interrupt } from '@ag-ui/core';
import { Subscription } from 'rxjs';
import { eventStreamResponse } from '../event-stream-response.js';
import type { ProtocolEngine } from '../protocol-engine.js';
import { HeldApprovals } from './held-approvals.js';
import { runEnded, runFailed, runStarted, runWaiting, type AgUiRunIds } from './ag-ui-terminal.js';
import { waitPointOf } from './wait-points.js';
import type { AgUiRunState } from './waiting-threads.js';

/** What {@link streamAgUiRun} does besides writing. */
export interface AgUiStreamHooks {
  /** The AG-UI run stopped while the run waits for the client: park it for the thread's next request. */
  readonly onWait: (state: AgUiRunState) => void;
  /** Milliseconds between keep-alive comments (0: none). */
  readonly keepAliveMs: number;
}

/**
 * Shows our run, from the event after `state.after`, as one AG-UI run on `res`:
 * `RUN_STARTED`, the mapped events, then exactly one terminal event —
 *
 * - `RUN_FINISHED` (or `RUN_ERROR` for an abnormal end) at the run's own `RunEnd`;
 * - `RUN_FINISHED` as soon as the run waits for the client: an approval (the `interrupt`
 *   outcome, one interrupt per approval that still waits — one decided meanwhile is not asked
 *   about: {@link HeldApprovals} — answered by the next request's `resume`), or a call
 *   to a frontend tool whose tool has started, so the permission rules have let it run (its
 *   `TOOL_CALL_START/ARGS/END`, held back until then, and a success whose `pendingToolCallIds`
 *   name the calls; the next request's tool messages answer them). The run goes on waiting (`onWait`);
 * - `RUN_ERROR` when the run fails or is cancelled.
 *
 * A client that leaves before the terminal event cancels the run: its model request is
 * aborted, its children stopped.
 */
export function streamAgUiRun(engine: ProtocolEngine, state: AgUiRunState, ids: AgUiRunIds, res: ServerResponse, hooks: AgUiStreamHooks): void {
  const out = eventStreamResponse(res, {}, hooks.keepAliveMs);
  const attachment = new Subscription();
  let finished = false;
  const finish = (events: readonly AGUIEvent[]): void => {
    finished = true;
    held.stop();
    state.calls.listen(undefined);
    attachment.unsubscribe();
    for (const event of events) out.send(event);
    out.end();
  };
  const wait = (shown: readonly Interrupt[], pending: readonly string[]): void => {
    // Approvals held since they were seen may wait by now: they are behind the next AG-UI run's start.
    const interrupts = [...shown, ...held.waiting().filter((interrupt) => !shown.some((s) => s.id === interrupt.id))];
    // Those not waiting yet: the next AG-UI run offers them again (it starts after their events).
    state.held.push(...held.rest());
    for (const interrupt of interrupts) state.interrupts.add(interrupt.id);
    state.calls.ask(pending);
    // The client knows each call by the id its TOOL_CALL_START gave it, not the model's (which may repeat).
    const pendingIds = pending.map((callId) => state.mapper.toolCallIdOf(state.run.runId, callId, undefined));
    finish([...state.mapper.closeOpen(true), runWaiting(ids, interrupts, pendingIds)]);
    hooks.onWait(state);
  };
  const held = new HeldApprovals(engine, state.run.runId, (interrupts) => {
    if (!finished) wait(interrupts, []);
  });
  // A frontend call waits for the client once its tool has started: after the events that led to it.
  const waitForCalls = (): void => {
    const ready = finished ? [] : state.calls.ready();
    if (ready.length === 0) return;
    // Its TOOL_CALL_* only now: a client that runs every call it sees runs none the rules refuse.
    for (const callId of ready) for (const event of state.mapper.release(callId)) out.send(event);
    wait([], ready);
  };
  res.once('close', () => {
    if (finished) return;
    finished = true;
    held.stop();
    state.calls.listen(undefined);
    attachment.unsubscribe();
    engine.runs.cancel(state.run.runId);
  });
  out.send(runStarted(ids));
  for (const note of state.notes.splice(0)) out.send(note);
  state.calls.listen(waitForCalls);
  // Held when the last AG-UI run stopped: taken back before the events after them (which may decide them) are read.
  if (!finished) held.carry(state.held.splice(0));
  attachment.add(
    engine.runs.attach(state.run.runId, { after: state.after }).subscribe({
      next: ({ seq, event }) => {
        if (finished) return;
        state.after = seq;
        for (const mapped of state.mapper.map(event)) out.send(mapped);
        if (event.type === 'RunEnd') return finish([...state.mapper.closeOpen(false), runEnded(ids, event)]);
        held.seen(event);
        const interrupt = waitPointOf(event, state);
        if (interrupt !== undefined) held.offer(interrupt);
        waitForCalls();
      },
      error: (error: unknown) => {
        if (!finished) finish([runFailed(error)]);
      },
      complete: () => {
        if (!finished) finish([runFailed(new Error('the run ended without its RunEnd event'))]);
      },
    }),
  );
  // A call that started while no AG-UI run showed the run (an approval answered by this request).
  waitForCalls();
}
