import type { ApprovalDecision } from '../permission/approval.js';
import { sessionIdProblem } from '../session/session-id.js';
import { HttpFailure } from './http-failure.js';

/** What `POST /runs` asks for. */
export interface StartRequest {
  readonly prompt: string;
  readonly sessionId?: string;
  readonly agentName?: string;
}

/** The longest session id or agent name accepted (by the runs API and the protocol routes). */
export const MAX_NAME = 256;
/** Control characters (C0, DEL, C1): never part of a name. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Whether `value` may name a session, an agent or a task: a string of 1 to {@link MAX_NAME}
 * characters without control characters. Names are echoed in answers and events and kept in
 * stores, so a megabyte one would be carried everywhere.
 *
 * @example
 * ```ts
 * isName('thread-1'); // true
 * isName('a\nb'); // false
 * ```
 */
export function isName(value: unknown): boolean {
  return typeof value === 'string' && value !== '' && value.length <= MAX_NAME && !CONTROL.test(value);
}

/**
 * The one rule for a conversation's id over HTTP: what every start takes (the runs API's
 * `sessionId`, A2A's `contextId`, AG-UI's `threadId`, the `useChat` id) and what the session
 * routes (`/sessions/:id`, decoded) take, so every conversation listed can be opened,
 * compacted and deleted: a name ({@link isName}) other than `.` and `..`, without a lone surrogate.
 *
 * @example
 * ```ts
 * isSessionId('team/notes'); // true (sent as `team%2Fnotes`)
 * isSessionId('..'); // false
 * ```
 */
export function isSessionId(value: unknown): boolean {
  return isName(value) && sessionIdRefusal(value as string) === undefined;
}

/**
 * Why `name` (a name, {@link isName}) cannot be a conversation's id ({@link isSessionId}),
 * to follow the field's name in a `400`; `undefined` when it can.
 *
 * @example
 * ```ts
 * sessionIdRefusal('.'); // 'cannot be "." or "..": ...'
 * ```
 */
export function sessionIdRefusal(name: string): string | undefined {
  // A URL resolves them away (`fetch` sends `<base>/sessions/..` as `<base>/`): the conversation's routes could never be reached.
  if (name === '.' || name === '..') return `cannot be "." or "..": those are dot segments in a URL, so the conversation could never be opened or deleted through /sessions/:id; use another id`;
  const problem = sessionIdProblem(name); // every store refuses it, after the run started
  return problem === undefined ? undefined : `cannot name a conversation: ${problem}`;
}

/**
 * Checks the body of `POST /runs`: a non-empty string `prompt`, and optionally a `sessionId`
 * ({@link isSessionId}) and an `agentName` (strings of 1 to 256 characters without control characters). Other
 * fields are ignored. A bad field is a `400` naming it.
 *
 * @example
 * ```ts
 * startRequest({ prompt: 'Survey this project' }); // { prompt: 'Survey this project' }
 * ```
 */
export function startRequest(body: Readonly<Record<string, unknown>>): StartRequest {
  const { prompt, sessionId, agentName } = body;
  if (typeof prompt !== 'string' || prompt.trim() === '') {
    throw new HttpFailure(400, `"prompt" must be a non-empty string, got ${describe(prompt)}`);
  }
  return { prompt, ...name('sessionId', sessionId), ...name('agentName', agentName) };
}

/**
 * Checks the body of `POST /runs/:id/approvals/:approvalId`: `decision` is `approve`, `reject` or
 * `always`; `comment`, when given, a string.
 *
 * @example
 * ```ts
 * approvalDecision({ decision: 'reject', comment: 'not on main' });
 * ```
 */
export function approvalDecision(body: Readonly<Record<string, unknown>>): ApprovalDecision {
  const { decision, comment } = body;
  if (decision !== 'approve' && decision !== 'reject' && decision !== 'always') {
    throw new HttpFailure(400, `"decision" must be "approve", "reject" or "always", got ${describe(decision)}`);
  }
  if (comment !== undefined && typeof comment !== 'string') throw new HttpFailure(400, `"comment" must be a string, got ${describe(comment)}`);
  return comment === undefined ? { decision } : { decision, comment };
}

/**
 * The task an approval answer is meant for (`taskId` in the body of
 * `POST /runs/:id/approvals/:approvalId`): a task id, `null` for the main agent's own call,
 * or `undefined` when the body names none.
 *
 * @example
 * ```ts
 * approvalTask({ decision: 'approve', taskId: 'task_1' }); // 'task_1'
 * ```
 */
export function approvalTask(body: Readonly<Record<string, unknown>>): string | null | undefined {
  const { taskId } = body;
  if (taskId === undefined || taskId === null) return taskId;
  if (typeof taskId !== 'string' || !isName(taskId)) {
    throw new HttpFailure(400, `"taskId" must be a task id (a string of 1 to ${MAX_NAME} characters) or null for the main agent, got ${describe(taskId)}`);
  }
  return taskId;
}

function name(field: 'sessionId' | 'agentName', value: unknown): Partial<Record<typeof field, string>> {
  if (value === undefined || value === null) return {};
  if (!isName(value)) {
    throw new HttpFailure(400, `"${field}" must be a string of 1 to ${MAX_NAME} characters without control characters, got ${describe(value)}`);
  }
  const refusal = field === 'sessionId' ? sessionIdRefusal(value as string) : undefined;
  if (refusal !== undefined) throw new HttpFailure(400, `"sessionId" ${refusal}, got ${describe(value)}`);
  return { [field]: value };
}

/** A short, safe description of a value for an error message. */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
