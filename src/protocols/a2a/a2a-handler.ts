import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2A_VERSION_HEADER, AgentCard } from '@a2a-js/sdk';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { DefaultRequestHandler, JsonRpcTransportHandler, ServerCallContext } from '@a2a-js/sdk/server';
import type { RunsRequestHandler } from '../../http/runs-handler.js';
import { resolveRunsOptions } from '../../http/runs-handler-options.js';
import { authorizeRequest } from '../../http/authorize-request.js';
import { HttpFailure } from '../../http/http-failure.js';
import { sendFailure, sendJson } from '../../http/http-answers.js';
import { readJsonBody } from '../../http/read-json-body.js';
import { RequestSlots, type RequestSlot } from '../ag-ui/request-slots.js';
import { errorMessage } from '../../errors/error-message.js';
import { agentCardOf } from './agent-card.js';
import type { A2AEngine, A2AHandlerOptions } from './a2a-handler-options.js';
import { readA2ARequest } from './a2a-request.js';
import { BoundedTaskStore } from './bounded-task-store.js';
import { CLIENT_LEFT_KEY, LeavableBusManager } from './leavable-bus-manager.js';
import { RunExecutor, STARTED_RUN_KEY, type StartedRun } from './run-executor.js';
import { startA2ARun } from './start-a2a-run.js';
import { rpcError, writeRpcAnswer, writeRpcJson } from './write-rpc-answer.js';

/** The JSON-RPC error code of a message refused before it ran (busy session, too many runs): implementation-defined, as JSON-RPC reserves -32000 to -32099 for. */
const REFUSED_CODE = -32000;

/** The path of the agent card, under `basePath`. */
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

/**
 * Serves the engine's main agent as an A2A agent, through `@a2a-js/sdk`'s request handler:
 *
 * - `GET <basePath>/.well-known/agent-card.json`: its agent card (one skill per subagent).
 * - `POST <basePath>/a2a`: JSON-RPC, A2A 1.0 (`SendMessage`, `SendStreamingMessage`,
 *   `GetTask`, `CancelTask`, ...) and 0.3 (`message/send`, `message/stream`, `tasks/get`,
 *   `tasks/cancel`). A message runs the main agent in the session named by its `contextId`
 *   (a new one when absent); the task's updates are the run's (see `RunUpdates`), and
 *   cancelling the task cancels the run, its model requests and its children.
 *
 * Like `runsHandler`: `authorize` answers `401`, a message beyond `maxRuns` running runs
 * `429` (`Retry-After`), a message for a session another run is using `409`, each with a
 * JSON-RPC error body the A2A client reports; bodies are bounded (`413`, `408`, `415`). Every
 * JSON-RPC request takes a `maxRuns` slot before its body is read; while this handler's runs
 * hold every slot, as many requests as they are are still read (to get or cancel their
 * tasks), and beyond those (runs of other handlers sharing `maxRuns` hold them, say) up to
 * `maxControlRequests` more, so a stored task can always be read; one beyond is `429`, its
 * connection closed. A message read so needs a run slot still (`429`). A message that finds `maxTasks` running
 * tasks is `429` too. `ListTasks` answers are bounded (see docs/protocols.md). A
 * message naming a task (`taskId`) is refused with A2A's unsupported-operation error
 * (`-32004`): its tasks never wait for input, and a task still working stays so (and cancellable).
 * One naming more than 16 reference tasks (`MAX_REFERENCE_TASKS`), or of more than 1,000 parts
 * (`MAX_MESSAGE_PARTS`) or 10,000 JSON values (`MAX_MESSAGE_VALUES`), is invalid params (`-32602`).
 *
 * @example
 * ```ts
 * const a2a = a2aHandler(engine, { authorize: (req) => req.headers.authorization === `Bearer ${token}` });
 * http.createServer(a2a).listen(8080); // card: http://localhost:8080/.well-known/agent-card.json
 * ```
 */
export function a2aHandler(engine: A2AEngine, options: A2AHandlerOptions = {}): RunsRequestHandler {
  const o = resolveRunsOptions(options);
  const maxTasks = options.maxTasks ?? 1000;
  if (!Number.isSafeInteger(maxTasks) || maxTasks < 1) throw new RangeError(`maxTasks must be a whole number, at least 1, got ${String(maxTasks)}`);
  // A request takes a slot before its body is read (a body holds memory and a socket), as
  // runsHandler's starts and agUiHandler's requests do; while this handler's runs hold every
  // slot, requests about their tasks (get, cancel) are read on lent ones, as many as run, and
  // then on the handler's own control slots: runs of other handlers sharing `maxRuns` (which
  // lend nothing here) must not keep a finished task from being read.
  let running = 0;
  const requests = new RequestSlots(o.slots, () => running, o.controlSlots);
  const tasks = new BoundedTaskStore(maxTasks);
  const card = (req: IncomingMessage): AgentCard =>
    agentCardOf(engine.agents.list(), options.publicUrl ?? `http://${req.headers.host ?? 'localhost'}${o.basePath}/a2a`, o.authorize !== undefined, options.card);
  // The SDK reads its card for the extended-card method only (input modes are not checked): the card as it is now.
  const sdk = new DefaultRequestHandler(agentCardOf(engine.agents.list(), options.publicUrl ?? `${o.basePath}/a2a`, o.authorize !== undefined, options.card), tasks, new RunExecutor(), new LeavableBusManager());
  const v1 = new JsonRpcTransportHandler(sdk);
  const legacy = new LegacyJsonRpcTransportHandler(sdk);
  return (req, res, next) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== `${o.basePath}${AGENT_CARD_PATH}` && path !== `${o.basePath}/a2a`) {
      if (next) next();
      // a failure as any other: its body unread, the connection closes (sendFailure)
      else if (!o.fallthrough) sendFailure(res, new HttpFailure(404, `not found: ${req.method ?? '?'} ${path!.slice(0, 200)}`));
      return next === undefined && !o.fallthrough;
    }
    const serve = async (): Promise<void> => {
      await authorizeRequest(req, o.authorize);
      if (path !== `${o.basePath}/a2a`) {
        if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpFailure(405, `method ${req.method ?? '?'} is not allowed here; use GET`, { allow: 'GET' });
        return sendJson(res, 200, AgentCard.toJSON(card(req)));
      }
      if (req.method !== 'POST') throw new HttpFailure(405, `method ${req.method ?? '?'} is not allowed here; use POST (JSON-RPC)`, { allow: 'POST' });
      return rpc(req, res);
    };
    const rpc = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
      const slot = takeSlot(requests, response);
      if (slot === undefined) return;
      const body = await readJsonBody(request, o.maxBodyBytes, o.bodyTimeoutMs).catch((error: unknown) => {
        slot.release();
        throw error;
      });
      const facts = readA2ARequest(body);
      // Only a message keeps its slot, for its run; the rest are read (a subscription may then last hours).
      if (facts.send === undefined || facts.refused !== undefined) slot.release();
      const mapError = facts.legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
      let started: StartedRun | undefined;
      let place: (() => void) | undefined;
      try {
        // A message naming a task: A2A's "unsupported operation" (-32004), what the SDK answers for an ended task;
        // one naming too many reference tasks: invalid params (-32602).
        if (facts.refused !== undefined) throw facts.refused;
        if (facts.send) {
          place = tasks.reserve(); // a 429 when running tasks fill the store: no run starts
          // A client that leaves while its start waits for an ending run (a task just cancelled) starts nothing.
          started = await startA2ARun(engine, requests.forRun(slot), facts.send, response);
          if (started === undefined) return;
          running += 1;
          const ended = (): void => void (running -= 1);
          started.run.result.then(ended, ended);
        }
        const state = new Map<string, unknown>(started ? [[STARTED_RUN_KEY, started]] : []);
        if (facts.subscribe) state.set(CLIENT_LEFT_KEY, leftSignal(response));
        const requestedVersion = header(request, A2A_VERSION_HEADER) ?? (facts.legacy ? '0.3' : '1.0');
        const context = new ServerCallContext({ requestedVersion, state });
        const answer = await (facts.legacy ? legacy : v1).handle(body, context);
        // A message's stream stores its task's updates: read to its end even when its client has left.
        await writeRpcAnswer(response, answer, o.keepAliveMs, (error) => ({ jsonrpc: '2.0', id: facts.id, error: mapError(error) }), started ? 'read-to-end' : 'close');
      } catch (error) {
        // Refused before the SDK (a busy session 409, too many runs 429): that status, with a JSON-RPC error the client reports.
        if (error instanceof HttpFailure) return writeRpcJson(response, error.status, rpcError(facts.id, REFUSED_CODE, error.message), error.headers);
        writeRpcJson(response, 200, rpcError(facts.id, mapError(error).code, errorMessage(error)));
      } finally {
        place?.(); // taken by the task's first save, or given back
        if (started === undefined) slot.release(); // a message that did not start: the run's slot was never kept
        // A message the SDK refused before running it (a task in a final state, say): its run must not go on alone.
        if (started !== undefined && !started.claimed) started.run.cancel();
      }
    };
    serve().catch((error: unknown) => sendFailure(res, error));
    return true;
  };
}

/**
 * A slot for a JSON-RPC request about to be read, or `undefined` when none is free: then it
 * was answered `429` with a JSON-RPC error (its id unknown: the body is not read) and its
 * connection is closed, so a flood of bodies holds neither their bytes nor their sockets.
 */
function takeSlot(requests: RequestSlots, res: ServerResponse): RequestSlot | undefined {
  try {
    return requests.take();
  } catch (error) {
    if (!(error instanceof HttpFailure)) throw error;
    writeRpcJson(res, error.status, rpcError(null, REFUSED_CODE, error.message), { ...error.headers, connection: 'close' });
    return undefined;
  }
}

/** A signal that aborts when `res` closes: its client left, was cut, or its answer ended. */
function leftSignal(res: ServerResponse): AbortSignal {
  const left = new AbortController();
  if (res.destroyed) left.abort();
  else res.once('close', () => left.abort());
  return left.signal;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
