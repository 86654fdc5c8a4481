import type { IncomingMessage } from 'node:http';
import type { HarnessEngine } from '../../engine/harness-engine.js';
import { HttpFailure } from '../../http/http-failure.js';
import { readJsonBody } from '../../http/read-json-body.js';
import type { Tool } from '../../tools/tool.js';
import { MAX_TIMER_MS } from '../../validation/max-timer.js';
import { resolveProtocolOptions, type ProtocolHandlerOptions, type ResolvedProtocolOptions } from '../protocol-options.js';
import { protocolRoute, type ProtocolRequestHandler } from '../protocol-route.js';
import type { ProtocolEngine } from '../protocol-engine.js';
import { AgUiMapper } from './ag-ui-mapper.js';
import { streamAgUiRun } from './ag-ui-stream.js';
import { answerWaitingRun } from './answer-waiting-run.js';
import { FrontendCalls } from './frontend-calls.js';
import { frontendTools } from './frontend-tools.js';
import { RequestSlots, type RequestSlot } from './request-slots.js';
import { startStreamedRun } from '../start-streamed-run.js';
import { readRunAgentInput, type AgUiRequest } from './run-agent-input.js';
import { busyElsewhere, continuedElsewhere, stillWaitsFor, waitingElsewhere } from './waiting-elsewhere.js';
import { WaitingThreads } from './waiting-threads.js';

/** What {@link agUiHandler} needs of the engine: a protocol handler's, and checking a request's tools before it starts a run. */
export type AgUiEngine = ProtocolEngine & Pick<HarnessEngine, 'checkRunTools'>;

/** Options of {@link agUiHandler}. */
export interface AgUiHandlerOptions extends ProtocolHandlerOptions {
  /**
   * Milliseconds a run may wait for its client (a frontend tool's result, an answer to an
   * approval) before it is cancelled: it holds its thread and a run slot meanwhile. Default
   * 600,000 (ten minutes).
   */
  readonly clientWaitMs?: number;
  /**
   * The most requests whose bodies may be read at once when every `maxRuns` slot is taken and
   * none may be lent (runs of other handlers sharing `maxRuns` hold them, and bodies on their
   * way hold the slots lent for this handler's waiting runs): the answers to waiting runs need
   * no run slot, so they are read on these, the handler's own. One more is `429` with
   * `Retry-After`. A new turn read on one still needs a run slot (`429`). Default 8, as `runsHandler`'s.
   */
  readonly maxControlRequests?: number;
}

/**
 * Serves the engine's main agent as an AG-UI agent (the protocol of CopilotKit and
 * `@ag-ui/client`'s `HttpAgent`): `POST` a `RunAgentInput` and read the run as AG-UI events,
 * server-sent (`data: <event JSON>`), mapped by the same rules as {@link toAgUiEvents}.
 *
 * - `threadId` is our session: the thread's earlier turns are in it, so only the last message,
 *   a user message, is read as the prompt (`context` and `state` are put in front of it).
 * - `tools` (frontend tools) are offered to the model for this run. A call to one that may
 *   run (the permission rules gate it like any tool) ends the AG-UI run (`TOOL_CALL_*`, shown
 *   only now, then `RUN_FINISHED` naming it in `pendingToolCallIds`; a refused one is shown only
 *   as a `CUSTOM` `rxharness.ToolCallEnd`, the refusal, never as a call to run); the run waits, and
 *   the thread's next request, whose tool message carries the result, continues it as a new AG-UI run.
 * - An approval (a permission rule's `ask`, anywhere in the tree) ends the AG-UI run with an
 *   `interrupt` outcome (the interrupt's id is the approval's); the next request's `resume`
 *   entry answers it (`payload: { decision: 'approve' | 'reject' | 'always', comment? }`).
 * - A request that answers nothing while the thread waits starts a new turn; the waiting run
 *   is cancelled, once the new turn's prompt and tools have passed their checks. One refused
 *   (`400`), or no new turn either (a copy of an earlier request), changes nothing: the run
 *   still waits. A run nobody continues within `clientWaitMs` is cancelled.
 * - Instances sharing a backend: a thread whose run waits for approvals at another instance
 *   (no sticky routing) is continued here as above: `resume` is answered through the runs
 *   registry and the continuation streamed from the run's events; a new turn cancels that run.
 *   One waiting there for a frontend tool's result is `409`: route each thread to one instance.
 *   Only a run an AG-UI handler started is continued or cancelled so: a `POST /runs` run on the
 *   thread's session, waiting for approvals at another instance, is left alone (a new turn is
 *   `409`), as it is on one instance.
 *
 * Refusals are JSON `{ error }`: `400` a body that is not a `RunAgentInput`, whose last
 * message is not a user's, or whose frontend tool is unusable or named like a tool of the
 * server's own (`bash`, say: it would take that tool's place), or whose tools' descriptions are
 * too long (4 KiB each, 128 KiB for all tools with their schemas), `401` (`authorize`), `405`
 * not `POST`, `409` a thread another run is using (a run just cancelled, still closing its turn
 * in the session store, is waited for, up to 5 seconds), `413`/`408`/`415` as for `runsHandler`, `429` `maxRuns` runs already running or
 * requests being read, before the body is read (with `Retry-After`; while runs wait for their
 * clients, as many requests more are read, each maybe the answer one waits for, and then up to
 * `maxControlRequests` more, so runs of other handlers sharing `maxRuns` and bodies on their
 * way never keep an answer from being read; a new turn read so still needs a run slot). A client
 * that disconnects cancels its run.
 *
 * @example
 * ```ts
 * const engine = new HarnessEngine({ model });
 * http.createServer(agUiHandler(engine, { authorize })).listen(8000);
 * // new HttpAgent({ url: 'http://localhost:8000', headers: { authorization: `Bearer ${token}` } })
 * ```
 */
export function agUiHandler(engine: AgUiEngine, options: AgUiHandlerOptions = {}): ProtocolRequestHandler {
  const { clientWaitMs = 600_000, ...shared } = options;
  if (!Number.isFinite(clientWaitMs) || clientWaitMs < 1 || clientWaitMs > MAX_TIMER_MS) {
    throw new RangeError(`clientWaitMs must be a number of milliseconds from 1 to ${MAX_TIMER_MS}, got ${String(clientWaitMs)}`);
  }
  const o = resolveProtocolOptions(shared);
  // A run continued at another instance since (its answers sent there) is that instance's to time out.
  const threads = new WaitingThreads(clientWaitMs, (state) => stillWaitsFor(engine, state) && engine.runs.cancel(state.run.runId));
  // The runs this handler started and has not seen end: a run of this engine not among them (a
  // `POST /runs` one on the thread's session, waiting for its approvals) is no AG-UI client's to
  // continue or cancel; nor is another instance's whose record does not say an AG-UI handler
  // started it (`originOf`: a `POST /runs` run there, or a record of an older version).
  const ours = new Set<string>();
  const notAgUi = (runId: string): boolean => !ours.has(runId) && (engine.runs.approvals.pending(runId).length > 0 || engine.runs.originOf(runId) !== 'ag-ui');
  // While the slots are all taken, bodies are read on slots lent for the waiting runs, then on
  // the control slots: other handlers' runs (which lend nothing here), and bodies on their way
  // holding the lent ones, must not keep the answer a waiting run needs from being read.
  const requests = new RequestSlots(o.slots, () => threads.size, o.controlSlots);
  return protocolRoute(o, async (req, res) => {
    // Taken before the body is read: bodies on their way hold memory, and count against maxRuns.
    const slot = requests.take();
    const input = await readInput(req, o, slot);
    const ids = { threadId: input.threadId, runId: input.runId };
    const hooks = { keepAliveMs: o.keepAliveMs, onWait: threads.park.bind(threads, input.threadId) };
    const taken = threads.take(input.threadId);
    // Continued at another instance since, and waiting there for what this request answers: what we showed is stale.
    const parked = taken !== undefined && continuedElsewhere(engine, taken, input) ? undefined : taken;
    // None here: the thread's run may wait for approvals at another instance (no sticky routing).
    const waiting = parked ?? (await waitingElsewhere(engine, input.threadId, input.toolCallIds, (runId) => taken === undefined && notAgUi(runId)));
    const calls = new FrontendCalls();
    let turn: NewTurn | undefined;
    try {
      // Answers continue the waiting run; a request without any must start a new turn, checked whole first.
      if (waiting === undefined || !answerWaitingRun(engine, waiting, input)) turn = newTurn(engine, input, calls, clientWaitMs);
    } catch (error) {
      // A bad answer, a bad new turn, or neither (a request sent twice, say): the run still waits.
      slot.release();
      if (parked !== undefined) threads.park(input.threadId, parked);
      throw error;
    }
    if (turn === undefined) {
      slot.release(); // the waiting run holds its own
      return streamAgUiRun(engine, waiting!, ids, res, hooks);
    }
    if (waiting !== undefined) {
      // A new turn instead of answers: the waiting run is abandoned, and its session freed.
      engine.runs.cancel(waiting.run.runId);
      await waiting.run.result.catch(() => undefined);
    }
    const { prompt, tools } = turn;
    // A run of the thread just cancelled (here, or by its client leaving) may still be closing its turn: waited for, briefly.
    const options = { sessionId: input.threadId, ...(tools.length > 0 ? { tools } : {}) };
    const run = await startStreamedRun(engine, requests.forRun(slot), prompt, options, res).catch((error: unknown) => {
      throw waiting === undefined ? busyElsewhere(error) : error;
    });
    if (run === undefined) return; // the client is gone
    ours.add(run.runId);
    engine.runs.markOrigin(run.runId, 'ag-ui'); // told to the instances sharing the backend: their requests of the thread may continue it
    void run.result.catch(() => undefined).then(() => ours.delete(run.runId));
    const frontend = new Set(tools.map((t) => t.name));
    const state = { run, mapper: new AgUiMapper(frontend, input.toolCallIds), calls, frontendTools: frontend, after: 0, interrupts: new Set<string>(), notes: [], held: [] };
    streamAgUiRun(engine, state, ids, res, hooks);
  });
}

/** The request's `RunAgentInput`; the slot is given back when it cannot be read. */
async function readInput(req: IncomingMessage, o: ResolvedProtocolOptions, slot: RequestSlot): Promise<AgUiRequest> {
  try {
    return readRunAgentInput(await readJsonBody(req, o.maxBodyBytes, o.bodyTimeoutMs));
  } catch (error) {
    slot.release();
    throw error;
  }
}

/** What a request that starts a new turn brings: its prompt and its frontend tools. */
interface NewTurn {
  readonly prompt: string;
  readonly tools: readonly Tool[];
}

/**
 * The new turn a request starts, checked as far as it can be before anything changes: a
 * refused request must not have cost the thread its waiting run.
 *
 * @throws HttpFailure `400` when the last message is not a user's with text, or a tool is
 *   unusable or named like one of the engine's own.
 */
function newTurn(engine: AgUiEngine, input: AgUiRequest, calls: FrontendCalls, waitMs: number): NewTurn {
  if (input.prompt === undefined) {
    throw new HttpFailure(400, 'the last message must be a user message with text: it is the prompt (the thread\'s earlier messages are kept by the server)');
  }
  const tools = frontendTools(input.tools, calls, waitMs);
  try {
    engine.checkRunTools(tools);
  } catch (error) {
    throw error instanceof TypeError ? new HttpFailure(400, error.message) : error;
  }
  return { prompt: input.prompt, tools };
}
