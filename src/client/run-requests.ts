import type { ApprovalDecision } from '../permission/approval.js';
import type { RunInfo } from '../runs/run-types.js';
import { RunRequestError } from './client-errors.js';
import { idSegment } from './path-segment.js';
import { dropBodyAndThrow, readBodyText } from './read-body.js';
import { MAX_SERVER_WORDS } from './server-text.js';

/** How much of an error answer is read: its `{ error }` (or a proxy's page) starts well within it. */
const ERROR_BODY_BYTES = 4096;
/** The largest JSON answer taken (a conversation's whole transcript is the largest there is). */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** The `fetch` the client uses: the global one by default (browsers, Node 18+, Deno, workers). */
export type FetchFunction = (input: string, init?: RequestInit) => Promise<Response>;

/** Options of the client's requests. */
export interface RequestOptions {
  /** The `fetch` to use (a wrapper adding headers, a test double); default `globalThis.fetch`. */
  readonly fetch?: FetchFunction;
  /**
   * The server's secret (`rxharness serve` prints it in its address, `?token=...`), sent as
   * `Authorization: Bearer <token>`. A page served by `rxharness serve` needs none: its
   * cookie goes with each request.
   */
  readonly token?: string;
  /**
   * Aborts the request and the reading of its answer, e.g. `AbortSignal.timeout(10_000)`:
   * without it a server that never answers, or trickles its answer, keeps the call waiting
   * for as long as it likes. The call then rejects with the signal's reason. `fromRun`
   * errors with it (as it would end on unsubscribing: the run goes on).
   */
  readonly signal?: AbortSignal;
}

/** The request headers: `accept`, the JSON type of a body, the token. */
export function requestHeaders(options: RequestOptions, accept: string, json = false): Record<string, string> {
  return {
    accept,
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(options.token !== undefined ? { authorization: `Bearer ${options.token}` } : {}),
  };
}

/** What {@link startRun} starts. */
export interface StartRunInput {
  /** What the main agent (or `agentName`) is asked. */
  readonly prompt: string;
  /** Continue this conversation; default a new one. */
  readonly sessionId?: string;
  /** Run this agent directly instead of the main agent. */
  readonly agentName?: string;
}

/** What `POST /runs` answers: the new run and its conversation. */
export interface StartedRun {
  /** The run, for `fromRun`, `cancelRun` and `answerApproval`. */
  readonly runId: string;
  /** Its conversation: the one given, or a new one. */
  readonly sessionId: string;
}

/**
 * The URL of a run (or of the runs, without `runId`) under `baseUrl`, e.g. `/api/runs/run_1`,
 * or of one of its routes (`events`; `approvals` or `tasks` with the `id` of one). Throws a
 * `TypeError` for an id that would name another route ({@link idSegment}).
 */
export function runUrl(baseUrl: string, runId?: string, route?: 'events' | 'approvals' | 'tasks', id?: string): string {
  const base = `${baseUrl.replace(/\/+$/, '')}/runs`;
  if (runId === undefined && route === undefined) return base;
  const run = `${base}/${idSegment('runId', runId!)}`;
  if (route === undefined) return run;
  return id === undefined ? `${run}/${route}` : `${run}/${route}/${idSegment(route === 'tasks' ? 'taskId' : 'approvalId', id)}`;
}

/**
 * Starts a run on a `runsHandler` server (`POST <baseUrl>/runs`). Rejects with a
 * {@link RunRequestError} carrying the server's `{ error }` text and status: `400` an empty
 * prompt or an unknown agent, `409` a session another run is using.
 *
 * @example
 * ```ts
 * const { runId } = await startRun('/api', { prompt: 'Survey this project' });
 * fromRun('/api', runId).subscribe(({ event }) => console.log(event.type));
 * ```
 */
export async function startRun(baseUrl: string, input: StartRunInput, options: RequestOptions = {}): Promise<StartedRun> {
  const url = runUrl(baseUrl);
  const started = (await send(options, 'POST', url, 201, input)) as Partial<StartedRun> | null;
  // the ids go into the next requests' paths and the page's address: an answer without them names no run
  if (!isId(started?.runId) || !isId(started.sessionId)) throw wrongAnswer(201, 'the answer has no "runId" and "sessionId"', `POST ${url}`);
  return started as StartedRun;
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/**
 * What is known about a run (`GET <baseUrl>/runs/:id`): its state, session and times.
 *
 * @example
 * ```ts
 * const { state } = await getRun('/api', runId); // 'running' | 'done' | 'failed' | 'cancelled'
 * ```
 */
export async function getRun(baseUrl: string, runId: string, options: RequestOptions = {}): Promise<RunInfo> {
  return (await send(options, 'GET', runUrl(baseUrl, runId), 200)) as RunInfo;
}

/**
 * Which approval an answer is for: its `approvalId` (from the `HITLPending` event or the
 * `approval-pending` item) and, to be checked by the server, the task that asked. An
 * `approval-pending` UI item is one as it is.
 */
export interface ApprovalTarget {
  /** The approval's unique id. */
  readonly approvalId: string;
  /**
   * The task that asked (`undefined`: the main agent's own call); the server refuses the
   * answer when the approval is not that task's. Leave the property out to skip the check.
   */
  readonly taskId?: string | undefined;
}

/**
 * Answers an approval waiting anywhere in the run's tree
 * (`POST <baseUrl>/runs/:id/approvals/:approvalId`, with the task in the body, so an answer
 * never reaches another task's call). `approval` is the `approval-pending` item (or any
 * `{ approvalId, taskId }`); `decision` is `'approve'`, `'reject'`, `'always'`, or
 * `{ decision, comment }` (a rejection's comment tells the model what to do instead).
 * Rejects with a `404` {@link RunRequestError} when that approval is not waiting.
 *
 * @example
 * ```ts
 * await answerApproval('/api', runId, item, 'approve'); // item: an 'approval-pending' UI item
 * await answerApproval('/api', runId, other, { decision: 'reject', comment: 'not on main' });
 * ```
 */
export async function answerApproval(
  baseUrl: string,
  runId: string,
  approval: ApprovalTarget,
  decision: ApprovalDecision | ApprovalDecision['decision'],
  options: RequestOptions = {},
): Promise<void> {
  const answer = typeof decision === 'string' ? { decision } : decision;
  // The task goes along (null: the main agent's own call), checked by the server against the approval's.
  const body = 'taskId' in approval ? { ...answer, taskId: approval.taskId ?? null } : answer;
  await send(options, 'POST', runUrl(baseUrl, runId, 'approvals', approval.approvalId), 204, body);
}

/**
 * Cancels a run (`DELETE <baseUrl>/runs/:id`): its model requests, tools and tasks stop, its
 * waiting approvals are rejected, and every client following it gets an `AbortError`.
 *
 * @example
 * ```ts
 * await cancelRun('/api', runId);
 * ```
 */
export async function cancelRun(baseUrl: string, runId: string, options: RequestOptions = {}): Promise<void> {
  await send(options, 'DELETE', runUrl(baseUrl, runId), 202);
}

/**
 * Sends one JSON request and reads its answer; any other status than `expected`, an answer
 * larger than 32 MiB (not read further), or one that is not JSON, rejects with a
 * {@link RunRequestError}.
 */
export async function send(options: RequestOptions, method: string, url: string, expected: number, body?: unknown): Promise<unknown> {
  const signal = options.signal;
  signal?.throwIfAborted();
  const response = await (options.fetch ?? globalThis.fetch)(url, {
    method,
    headers: requestHeaders(options, 'application/json', body !== undefined),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(signal ? { signal } : {}),
  });
  // a fetch of the caller's that answered despite the signal: the call still ends with its reason
  if (signal?.aborted) await dropBodyAndThrow(response, signal);
  if (response.status !== expected) throw await requestError(response, `${method} ${url}`, signal);
  if (expected === 204) return undefined;
  const { text, whole } = await readBodyText(response, MAX_ANSWER_BYTES, signal);
  if (!whole) throw new RunRequestError(response.status, `the answer is larger than ${MAX_ANSWER_BYTES} bytes; it was not read further`, `${method} ${url}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A dev server or proxy answering its page for every path: say so, not "Unexpected token '<'".
    throw wrongAnswer(response.status, `the answer is not JSON (it starts ${JSON.stringify(text.slice(0, 60))})`, `${method} ${url}`);
  }
}

/**
 * A {@link RunRequestError} for a `2xx` answer that is not what the runs routes answer: the
 * base URL most likely names something else (a page, another API).
 */
export function wrongAnswer(status: number, what: string, request: string): RunRequestError {
  return new RunRequestError(status, `${what}: is the base URL the runs routes of a runsHandler (rxharness serve's /api)?`, request);
}

/**
 * Cancels one task of a run, queued or running, with the tasks under it
 * (`DELETE <baseUrl>/runs/:id/tasks/:taskId`): its siblings and the run go on, and the run's
 * model reads that it was cancelled. `taskId` is a task's id (a `task-start` or `task-queued`
 * item's `taskId`). Rejects with a `404` {@link RunRequestError} for a task the run did not
 * start, `409` for one that already ended.
 *
 * @example
 * ```ts
 * await cancelTask('/api', runId, item.taskId); // item: a 'task-start' UI item
 * ```
 */
export async function cancelTask(baseUrl: string, runId: string, taskId: string, options: RequestOptions = {}): Promise<void> {
  await send(options, 'DELETE', runUrl(baseUrl, runId, 'tasks', taskId), 202);
}

/** A {@link RunRequestError} from an error answer: its `{ error }`, or the start of its body (at most 4 KiB are read). */
export async function requestError(response: Response, request: string, signal?: AbortSignal): Promise<RunRequestError> {
  let text = '';
  try {
    ({ text } = await readBodyText(response, ERROR_BODY_BYTES, signal));
  } catch {
    // the body could not be read: the status says enough (unless the caller gave up: below)
  }
  if (signal?.aborted) await dropBodyAndThrow(response, signal);
  let message = text.slice(0, MAX_SERVER_WORDS) || response.statusText || 'no details';
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed.error === 'string') message = parsed.error;
  } catch {
    // not JSON (a proxy's error page): the start of the text it is
  }
  return new RunRequestError(response.status, message, request);
}
