import type { Observable } from 'rxjs';
import { maybeThen$ } from '../agent/maybe.js';
import type { ReActAgent } from '../agent/react-agent.js';
import type { TaskTracker } from '../delegation/task-tracker.js';
import type { AgentEvent } from '../events/agent-event.js';
import { sessionIdProblem } from '../session/session-id.js';
import type { MaybePromise, SessionStore } from '../session/session-store.js';
import { quotedName } from '../tools/args-validator.js';

/** The refusals {@link taskSessionError} made: {@link isTaskSessionRefusal} tells them from any other TypeError. */
const refusals = new WeakSet<TypeError>();

/**
 * The refusal of a run of the engine's own API (`stream`, `call`, `start`, `agent()`) on a
 * delegated task's session: such a run would read the task's transcript (its parent's prompt,
 * the child's answers) as its history and add its own turn to it, which the parent would find
 * when it resumes the task. Only the parent resumes a task, through the task tool; children
 * run on their task ids through the delegation runner, never through these agents.
 */
export function taskSessionError(sessionId: string): TypeError {
  const error = new TypeError(
    `The sessionId cannot be used: ${quotedName(sessionId)} is the session of a delegated task; only the conversation that started it resumes it, through the task tool (task_id). Use another sessionId`,
  );
  refusals.add(error);
  return error;
}

/**
 * Whether `sessionId` is a task's session: known to the tracker, or (a `task_` id) to the store
 * (`loadTaskInfo`, where it has one). A malformed id is left to the run's own check, which says what is wrong with it.
 * Also what the HTTP conversation routes ask: a task's session is no conversation of theirs.
 */
export function isTaskSession(sessionId: string, tasks: TaskTracker | undefined, sessions: SessionStore): MaybePromise<boolean> {
  if (tasks?.get(sessionId) !== undefined) return true;
  // Every task id is `task_<uuid>` (the task runner names them): any other id costs a run no store lookup.
  if (!sessionId.startsWith('task_') || sessionIdProblem(sessionId) !== undefined || typeof sessions.loadTaskInfo !== 'function') return false;
  const info = sessions.loadTaskInfo(sessionId);
  return info instanceof Promise ? info.then((found) => found !== undefined) : info !== undefined;
}

/**
 * A refusal of a delegated task's session the engine made ({@link taskSessionError}), told
 * apart from its other TypeErrors: what the HTTP compact route answers `404` without asking again.
 */
export function isTaskSessionRefusal(error: unknown): boolean {
  return error instanceof TypeError && refusals.has(error);
}

/**
 * `run()`, unless `known` (asked when subscribed) answers that `sessionId` is a task's session:
 * then it fails with {@link taskSessionError} before `run` is called, so before the run claims
 * the session or reads anything of it. Synchronous when `known` answers synchronously. What a
 * caller that has already asked uses (`engine.start` hands it the answer it refused with), so
 * the tracker and the store are asked once per run.
 */
export function unlessTaskSession$(sessionId: string, known: () => MaybePromise<boolean>, run: () => Observable<AgentEvent>): Observable<AgentEvent> {
  // maybeThen$ asks `known` when subscribed: each subscription is asked anew, as a cold run is.
  return maybeThen$(known, (task) => {
    if (task) throw taskSessionError(sessionId);
    return run();
  });
}

/**
 * `agent`, whose every run (its `stream`, `call` and `run$` all go through `run$`) on a task's
 * session fails with {@link taskSessionError} before it claims the session or reads anything of
 * it. Synchronous when the tracker or the store answers synchronously.
 */
export function refusingTaskSessions(agent: ReActAgent, tasks: TaskTracker, sessions: SessionStore): ReActAgent {
  const guarded = Object.create(agent) as ReActAgent;
  const run$ = agent.run$.bind(agent);
  guarded.run$ = (prompt, options): Observable<AgentEvent> => {
    const { sessionId } = options;
    if (sessionId === undefined) return run$(prompt, options);
    return unlessTaskSession$(sessionId, () => isTaskSession(sessionId, tasks, sessions), () => run$(prompt, options));
  };
  return guarded;
}
