import { map, type Observable } from 'rxjs';
import { maybe$ } from '../agent/maybe.js';
import type { SessionStore } from '../session/session-store.js';
import { quotedName } from '../tools/args-validator.js';
import { TaskRefusedError } from './task-refused-error.js';
import type { TaskTracker } from './task-tracker.js';

/**
 * Errors, with a message the model can act on, unless the task may be resumed: it exists
 * (running in this process or on the backend, else in the session store when it has
 * `loadTaskInfo`, else in this process), belongs to the calling conversation, was run
 * by the same agent, and is not running now. Synchronous when the store is.
 */
export function checkResumable$(taskId: string, agentName: string, sessionId: string, tracker: TaskTracker, sessions: SessionStore): Observable<void> {
  const tracked = tracker.get(taskId);
  const running = tracked?.state === 'running' || tracked?.state === 'queued';
  // A settled task exists while its store keeps it: the tracker still knows the tasks of a
  // conversation deleted since, which a new conversation taking its id must not resume.
  const asked = !running && typeof sessions.loadTaskInfo === 'function';
  const live = asked ? undefined : tracked;
  return maybe$(() => (asked ? sessions.loadTaskInfo?.(taskId) : undefined)).pipe(
    map((stored) => {
      const owner = live?.sessionId ?? stored?.ownerSessionId;
      const agent = live?.agentName ?? stored?.agentName;
      // Quoted cut: a forged id may be a megabyte long, and the message is read back in every later request.
      const id = quotedName(taskId);
      if (owner === undefined) throw new TaskRefusedError(`unknown task id ${id}; start a new task without task_id`);
      if (owner !== sessionId) throw new TaskRefusedError(`task ${id} belongs to another session and cannot be resumed from this one`);
      if (agent !== agentName) throw new TaskRefusedError(`task ${id} was run by agent "${agent}"; resume it with agent_name "${agent}"`);
      if (live?.state === 'running' || live?.state === 'queued') throw new TaskRefusedError(`task ${id} is still running; wait for its result before resuming it`);
    }),
  );
}
