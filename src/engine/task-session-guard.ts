import { defer, type Observable } from 'rxjs';
import { maybeThen$ } from '../agent/maybe.js';
import type { ReActAgent } from '../agent/react-agent.js';
import type { TaskTracker } from '../delegation/task-tracker.js';
import type { AgentEvent } from '../events/agent-event.js';
import { sessionIdProblem } from '../session/session-id.js';
import type { MaybePromise, SessionStore } from '../session/session-store.js';
import { quotedName } from '../tools/args-validator.js';

/**
 * The refusal of a run of the engine's own API (`stream`, `call`, `start`, `agent()`) on a
 * delegated task's session: such a run would read the task's transcript (its parent's prompt,
 * the child's answers) as its history and add its own turn to it, which the parent would find
 * when it resumes the task. Only the parent resumes a task, through the task tool; children
 * run on their task ids through the delegation runner, never through these agents.
 */
export function taskSessionError(sessionId: string): TypeError {
  return new TypeError(
    `The sessionId cannot be used: ${quotedName(sessionId)} is the session of a delegated task; only the conversation that started it resumes it, through the task tool (task_id). Use another sessionId`,
  );
}

/** Whether this process's task tracker knows `sessionId` as a task's id (synchronous: what `start` refuses before it registers a run). */
export function trackedTask(sessionId: string | undefined, tasks: TaskTracker): sessionId is string {
  return sessionId !== undefined && tasks.get(sessionId) !== undefined;
}

/**
 * Whether `sessionId` is a task's session: known to the tracker, or (a `task_` id) to the store
 * (`loadTaskInfo`, where it has one). A malformed id is left to the run's own check, which says what is wrong with it.
 * Also what the HTTP conversation routes ask: a task's session is no conversation of theirs.
 */
export function isTaskSession(sessionId: string, tasks: TaskTracker | undefined, sessions: SessionStore): MaybePromise<boolean> {
  if (tasks && trackedTask(sessionId, tasks)) return true;
  // Every task id is `task_<uuid>` (the task runner names them): any other id costs a run no store lookup.
  if (!sessionId.startsWith('task_') || sessionIdProblem(sessionId) !== undefined || typeof sessions.loadTaskInfo !== 'function') return false;
  const info = sessions.loadTaskInfo(sessionId);
  return info instanceof Promise ? info.then((found) => found !== undefined) : info !== undefined;
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
    return defer(() =>
      maybeThen$(
        () => isTaskSession(sessionId, tasks, sessions),
        (task) => {
          if (task) throw taskSessionError(sessionId);
          return run$(prompt, options);
        },
      ),
    );
  };
  return guarded;
}
