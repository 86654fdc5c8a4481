import { randomUUID } from 'node:crypto';

/** A UTF-16 surrogate not paired with its other half (`u` flag: a pair is one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Why `sessionId` cannot name a session, or undefined when it can: it must be a non-empty
 * string of well-formed Unicode. A lone surrogate is replaced or dropped wherever the id is
 * encoded as UTF-8 (a Redis key, a file name, JSON on the wire), so two ids differing only in
 * one would name the same stored session.
 *
 * @example
 * ```ts
 * sessionIdProblem('ses_1'); // undefined
 * sessionIdProblem('ses_\ud800'); // 'it is not well-formed Unicode: a lone surrogate \\ud800 at index 4 ...'
 * ```
 */
export function sessionIdProblem(sessionId: unknown): string | undefined {
  if (typeof sessionId !== 'string' || sessionId === '') return `it must be a non-empty string, got ${JSON.stringify(sessionId) ?? String(sessionId)}`;
  const lone = LONE_SURROGATE.exec(sessionId);
  if (!lone) return undefined;
  const unit = `\\u${lone[0].charCodeAt(0).toString(16)}`;
  return (
    `it is not well-formed Unicode: a lone surrogate ${unit} at index ${lone.index}, which is lost when the id is encoded ` +
    '(two ids differing only there would share one stored session); use ids of whole characters, e.g. from randomUUID()'
  );
}

/**
 * Throws a `TypeError` naming the problem when `sessionId` cannot name a session (see
 * {@link sessionIdProblem}): what every store and the engine check before using an id.
 *
 * @example
 * ```ts
 * assertSessionId(id); // throws for '' or 'ses_\ud800'
 * ```
 */
export function assertSessionId(sessionId: unknown): asserts sessionId is string {
  const problem = sessionIdProblem(sessionId);
  if (problem !== undefined) throw new TypeError(`The sessionId cannot be used: ${problem}`);
}

/**
 * What {@link newSessionId} answers: `ses_` and a random UUID. A session of this form without
 * a stored transcript is a one-shot run's (`isOneShotTask` reads it so).
 */
export const GENERATED_SESSION_ID = /^ses_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The form of the id `TaskRunner` gives a task it starts (not one it resumes): `task_` and a
 * random UUID. A one-shot run resumes no task of another run (it owns none), so each of its task
 * sessions has an id of this form; a conversation never has one (its id is {@link GENERATED_SESSION_ID}'s
 * or the name a user gave it). `isOneShotTask` reads it so.
 */
export const GENERATED_TASK_ID = /^task_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A new session id, for a run given none (a one-shot run): `ses_` and a random UUID.
 *
 * @example
 * ```ts
 * newSessionId(); // 'ses_3b241101-e2bb-4255-8caf-4136c566a962'
 * ```
 */
export function newSessionId(): string {
  return `ses_${randomUUID()}`;
}

/**
 * A new task id, for a task `TaskRunner` starts (not one it resumes): `task_` and a random
 * UUID, the form {@link GENERATED_TASK_ID} tells.
 *
 * @example
 * ```ts
 * newTaskId(); // 'task_3b241101-e2bb-4255-8caf-4136c566a962'
 * ```
 */
export function newTaskId(): string {
  return `task_${randomUUID()}`;
}
