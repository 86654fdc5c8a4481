import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HarnessEngine } from '../engine/harness-engine.js';
import { authorizeRequest } from './authorize-request.js';
import { cancelRunTask } from './cancel-task.js';
import { HttpFailure } from './http-failure.js';
import { sendFailure, sendJson } from './http-answers.js';
import { matchRoute, type RunsRoute } from './match-route.js';
import { assertJsonRequest, readJsonBody } from './read-json-body.js';
import { startHttpRun } from './start-http-run.js';
import { notPending } from './not-pending.js';
import { approvalDecision, approvalTask, startRequest } from './request-bodies.js';
import { resolveRunsOptions, type ResolvedRunsOptions, type RunsHandlerOptions } from './runs-handler-options.js';
import type { RunSlots } from './run-slots.js';
import { matchSessionRoute, serveSessionRoute } from './session-routes.js';
import { nothingPast, streamRunEvents } from './stream-run-events.js';

/**
 * A Node request handler for the runs routes (see {@link runsHandler}). It returns `true`
 * when it took the request (it answers, now or later) and `false` when it left it alone
 * (a path outside the routes, with `fallthrough` or `next`).
 */
export type RunsRequestHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => boolean;

/** What the handler needs of the engine: starting runs and the registry of started runs. */
export type RunsEngine = Pick<HarnessEngine, 'start' | 'runs'>;

/**
 * Serves an engine's started runs over HTTP, under `basePath`:
 *
 * - `POST /runs` with JSON `{ prompt, sessionId?, agentName? }`: starts a run, `201 { runId, sessionId }`.
 * - `GET /runs/:id/events`: the run as server-sent events, `id: <seq>` and `data: <SequencedEvent>`
 *   each; a `Last-Event-ID` header (or `?after=N`) resumes after that seq; then `event: end`,
 *   `event: cancelled` for a cancelled run, or `event: error` for a run whose events stopped
 *   with an error, its `id:` one past the last event's seq (the same ending again to a client
 *   that asks after it with `?after=N`, and to an EventSource reconnecting before that id; one
 *   reconnecting with `Last-Event-ID` at or past it, to a run over, saw the ending and is
 *   answered `204`, which stops it). Reconnecting never starts a run, and a client that leaves
 *   never stops one.
 * - `DELETE /runs/:id`: cancels the run, `202 { runId, state }`.
 * - `POST /runs/:id/approvals/:approvalId` with `{ decision, comment?, taskId? }`: answers
 *   the approval of that id (from its `HITLPending`) waiting anywhere in the run's tree, `204`;
 *   with `taskId` only when it belongs to that task (`null`: the main agent). A call id is
 *   never enough: two tasks may share one.
 * - `DELETE /runs/:id/tasks/:taskId`: cancels one task of the run (queued or running) and
 *   the tasks under it; the others and the run go on, `202 { runId, taskId, state }`.
 * - `GET /runs/:id`: the run's `RunInfo`.
 * - `GET /sessions`, `GET /sessions/:id` (messages and runs), `DELETE /sessions/:id`, `POST
 *   /sessions/:id/compact`, `GET /sessions/:id/archive`: the conversations (see docs/http.md).
 *
 * Errors are JSON `{ error }`: `400` a bad body (not JSON, no prompt, an unknown agent),
 * `401` a request `authorize` refused, `404` an unknown run or no such pending call, `405`
 * another method, `408` a body slower than `bodyTimeoutMs`, `409` a session another run is
 * using, `413` a body over `maxBodyBytes`, `415` a body not sent as `application/json`, `429`
 * `maxRuns` runs (or compactions) already running or `maxControlRequests` approval answers already being read
 * (with `Retry-After`), `503` a closed engine. Other paths are answered `404`, or left to the
 * caller with `fallthrough` or a `next` callback (Express). Works with `http.createServer`,
 * Express (`app.use(handler)`) and Fastify (the raw request and response, see docs/http.md).
 *
 * Anyone who reaches the handler can start runs, which use tools on the engine's workspace:
 * give `authorize` (or put it behind your own authentication) unless only you can reach it.
 *
 * @example
 * ```ts
 * const engine = new HarnessEngine({ model });
 * const authorize = (req: IncomingMessage) => req.headers.authorization === `Bearer ${process.env.API_TOKEN}`;
 * http.createServer(runsHandler(engine, { basePath: '/api', authorize })).listen(8080);
 * // curl -X POST localhost:8080/api/runs -H 'content-type: application/json' -d '{"prompt":"hi"}'
 * ```
 */
export function runsHandler(engine: RunsEngine, options: RunsHandlerOptions = {}): RunsRequestHandler {
  const o = resolveRunsOptions(options);
  const slots = o.slots;
  return (req, res, next) => {
    const sessionRoute = matchSessionRoute(req.method, req.url, o.basePath);
    if (sessionRoute !== undefined) {
      authorized(req, o, sessionRoute.kind)
        // a compaction is a model request: it takes a run's slot (maxRuns), as a run does
        .then(() => serveSessionRoute(engine, sessionRoute, res, slots))
        .catch((error: unknown) => sendFailure(res, error));
      return true;
    }
    const route = matchRoute(req.method, req.url, o.basePath);
    if (route === undefined) {
      if (next) next();
      // a failure as any other: its body unread, the connection closes (sendFailure)
      else if (!o.fallthrough) sendFailure(res, new HttpFailure(404, `not found: ${req.method ?? '?'} ${clip((req.url ?? '').split('?', 1)[0]!)}`));
      return next === undefined && !o.fallthrough;
    }
    authorized(req, o, route.kind)
      .then(() => serve(engine, route, req, res, o, slots))
      .catch((error: unknown) => sendFailure(res, error));
    return true;
  };
}

/**
 * Resolves when `authorize` (if any) lets the request through (else a `401`) and, for a
 * `POST` to a route that takes one, when it was sent as `application/json` (else a `415`). The type is checked here,
 * once for every `POST` route, whether or not the route reads a body: it is what keeps a
 * page of another site from sending one (see {@link assertJsonRequest}).
 */
async function authorized(req: IncomingMessage, o: ResolvedRunsOptions, kind: string): Promise<void> {
  await authorizeRequest(req, o.authorize);
  if (req.method === 'POST' && !REFUSALS.has(kind)) assertJsonRequest(req);
}

/** Route kinds that only refuse the request (a `405` or `404` says more than a `415` there). */
const REFUSALS: ReadonlySet<string> = new Set(['method', 'bad-id', 'no-route']);

async function serve(engine: RunsEngine, route: RunsRoute, req: IncomingMessage, res: ServerResponse, o: ResolvedRunsOptions, slots: RunSlots): Promise<void> {
  switch (route.kind) {
    case 'start': {
      const release = slots.take();
      try {
        const { prompt, ...start } = startRequest(await readJsonBody(req, o.maxBodyBytes, o.bodyTimeoutMs));
        // the slot is the run's until it settles, and its background tasks' after (startHttpRun);
        // a client gone before its turn starts nothing
        const run = await startHttpRun(engine, release, prompt, start, res);
        if (run === undefined) return;
        return sendJson(res, 201, { runId: run.runId, sessionId: run.sessionId }, { location: `${o.basePath}/runs/${run.runId}` });
      } catch (error) {
        release();
        throw error;
      }
    }
    case 'info':
      return sendJson(res, 200, await known(engine, route.runId));
    case 'events': {
      const { after, reconnect } = resumePosition(req);
      await known(engine, route.runId);
      if (res.destroyed) return; // the client left while we looked the run up
      // a client paused when the run ends learns of it only through this (see streamRunEvents); evicted is ended
      const ended = (): boolean => engine.runs.get(route.runId)?.state !== 'running';
      const attach = (from: number) => engine.runs.attach(route.runId, { after: from });
      // An EventSource back after a run's ending would be told it again and come back again, for
      // ever: a 204 is what stops it (the SSE spec). The ending's id is one past the run's last
      // seq (streamRunEvents), so `after` past that seq (nothing past `after - 1`) saw the ending;
      // one at the last seq missed it (its connection dropped before it, the run then cancelled,
      // say) and still gets it. A first request (`?after=N`, what fromRun sends) always gets it.
      if (reconnect && after > 0 && ended() && (await nothingPast(attach, after - 1))) return sendJson(res, 204, undefined);
      if (res.destroyed) return;
      return streamRunEvents(attach, after, res, o.keepAliveMs, ended);
    }
    case 'cancel': {
      await known(engine, route.runId);
      await engine.runs.cancel(route.runId);
      return sendJson(res, 202, { runId: route.runId, state: (await engine.runs.get(route.runId))?.state ?? 'cancelled' });
    }
    case 'cancel-task':
      return cancelRunTask(engine, await known(engine, route.runId), route.taskId, res);
    case 'approve': {
      // Read on a slot of its own, never a run's: runs waiting for approvals may hold every run
      // slot. Taken before the body is read; a refusal closes the connection (see RunSlots.take).
      const release = o.controlSlots.take();
      try {
        const body = await readJsonBody(req, o.maxBodyBytes, o.bodyTimeoutMs);
        const decision = approvalDecision(body);
        await known(engine, route.runId);
        if (!(await engine.runs.answer(route.runId, route.approvalId, decision, approvalTask(body)))) throw notPending(engine, route.runId, route.approvalId);
        return sendJson(res, 204, undefined);
      } finally {
        release();
      }
    }
    case 'bad-id':
      throw new HttpFailure(404, route.what === 'approval' ? `no approval ${JSON.stringify(clip(route.id))} is pending` : `unknown ${route.what} ${JSON.stringify(clip(route.id))}`);
    case 'method':
      throw new HttpFailure(405, `method ${req.method ?? '?'} is not allowed here; use ${route.allow}`, { allow: route.allow });
    case 'no-route':
      throw new HttpFailure(404, `not found: ${req.method ?? '?'} ${clip((req.url ?? '').split('?', 1)[0]!)}`);
  }
}

/** The run's info, or a `404` naming it. */
async function known(engine: RunsEngine, runId: string) {
  const info = await engine.runs.get(runId);
  if (info === undefined) throw new HttpFailure(404, `unknown run "${runId}": it never started here, or it finished and was evicted`);
  return info;
}

/**
 * Where an event stream resumes: the `Last-Event-ID` header (an EventSource reconnecting:
 * `reconnect`), else `?after=N`, else 0.
 */
function resumePosition(req: IncomingMessage): { after: number; reconnect: boolean } {
  const header = req.headers['last-event-id'];
  const reconnect = typeof header === 'string' && header !== '';
  const raw = reconnect ? header : new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('after');
  if (raw === null) return { after: 0, reconnect };
  if (!/^\d{1,15}$/.test(raw)) throw new HttpFailure(400, `the position to resume after must be a whole number (a seq), got ${JSON.stringify(clip(raw))}`);
  return { after: Number(raw), reconnect };
}

/** Caller-supplied text quoted in an error, kept short. */
function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
