import type { Redis } from 'ioredis';
import type { BadMessageReporter } from './channel-warnings.js';
import type { GoneChecks } from './gone-checks.js';
import type { KnownTasks } from './known-tasks.js';
import type { RedisKeys } from './redis-keys.js';
import { isPlainObject, messageObject } from './stored-object.js';
import { readCancelMark } from './stored-task.js';
import { readTaskRecord } from './task-record.js';

/** What a tasks-channel message changes: an engine's copy of the tasks, and the cancels it serves. */
export interface TaskChannelState {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly known: KnownTasks;
  /** Where the messages that are none are said (`badMessagesOn`: at most once a minute). */
  readonly bad: BadMessageReporter;
  /** The cancellers this engine serves (none, or none running the task: nothing to read back). */
  readonly cancellers: () => readonly Canceller[];
  /** The tasks whose records are being read back for a `forget`, so a flood of them costs one read each in flight. */
  readonly checks: GoneChecks;
}

/** Who serves an engine's cancels: its tracker, and whether it runs (or holds queued) a task, when it can say. @internal */
export interface Canceller {
  readonly cancel: (taskId: string) => void;
  readonly runsHere?: (taskId: string) => boolean;
}

/** What skipping a tasks-channel message means, as its warning says. */
export const SKIPPED = "The copies of other engines' tasks were kept as they were, and no task was cancelled for it";

/**
 * Applies a message of the tasks channel (`TaskMessage`, see task-messages.ts), or says why
 * it is none, in the one way every channel's bad messages are said (`badMessagesOn`).
 * Anyone with access to the Redis can publish there, so:
 *
 * - `put`: the task record is held to what an engine publishes (`readTaskRecord`);
 * - `cancel`: the task is cancelled only if Redis marks its launch cancelled (the marker
 *   `SharedTasks.cancel` writes with the message, naming the launch's start): a forged one
 *   would cancel any running task of any engine. Only an engine whose tracker runs the task
 *   reads the marker (`Canceller.runsHere`);
 * - `forget`: the copies of those tasks are forgotten once Redis confirms their records are
 *   gone (the conversation's delete takes them out before its message): a forged one would
 *   drop any task from every engine's copy until its next update.
 *
 * @internal
 */
export function applyTaskMessage(state: TaskChannelState, text: string): void {
  const read = messageObject(text);
  if ('problem' in read) return state.bad.report(read.problem, text);
  const message = read.object;
  const { op } = message;
  if (op === 'put') {
    const { info, owner } = message;
    if (!isPlainObject(info)) return state.bad.report('its "info" is not a JSON object', text);
    const read = readTaskRecord({ ...info, owner });
    return 'info' in read ? state.known.put(read) : state.bad.report(`its task record: ${read.problem}`, text);
  }
  if (op === 'forget') {
    const { taskIds } = message;
    if (!Array.isArray(taskIds)) return state.bad.report('a forget message needs a list of "taskIds"', text);
    return forgetGone(state, taskIds);
  }
  if (op !== 'cancel') return state.bad.report('its "op" is not one of put, cancel, forget', text);
  const { taskId } = message;
  if (typeof taskId !== 'string') return state.bad.report('a cancel message needs a string "taskId"', text);
  // Only an engine that runs the task (or cannot say) reads its marker back: the others could not cancel it.
  if (state.cancellers().some((c) => c.runsHere?.(taskId) ?? true)) cancelMarked(state, taskId);
}

/**
 * Cancels the task if Redis marks the launch this engine knows of cancelled (or the queued
 * launch it started from: the canceller's copy may still hold it queued).
 */
function cancelMarked(state: TaskChannelState, taskId: string): void {
  if (!state.known.get(taskId)) return;
  readCancelMark(state.redis, state.keys, taskId, 'no task is cancelled for it')
    .then((mark) => {
      // Read as the marker comes: the launch may have started from its queue meanwhile.
      if (mark === undefined || !state.known.namesLaunch(taskId, mark)) return;
      for (const { cancel } of state.cancellers()) cancel(taskId);
    })
    .catch(() => undefined); // Redis is away: a cancel not confirmed is none
}

/**
 * Forgets the known tasks among `taskIds` whose records Redis no longer holds, in one round
 * trip (ids this engine does not know cost nothing; one whose record is being read already is
 * read once more after, however many forgets name it meanwhile: `GoneChecks`). A copy that
 * changed meanwhile (a later put) is kept; Redis away, every copy is: a forget not confirmed is none.
 */
function forgetGone(state: TaskChannelState, taskIds: readonly unknown[]): void {
  const known = [...new Set(taskIds)].filter((id): id is string => typeof id === 'string' && state.known.get(id) !== undefined);
  const ids = state.checks.start(known);
  if (ids.length === 0) return;
  const seen = ids.map((id) => state.known.get(id));
  const reads = state.redis.pipeline();
  for (const id of ids) reads.exists(state.keys.task(id));
  reads
    .exec()
    .then((answers) => {
      const gone = ids.filter((id, i) => {
        const [error, found] = answers?.[i] ?? [];
        return !error && found === 0 && state.known.get(id) === seen[i];
      });
      state.known.forget(gone);
    })
    .catch(() => undefined)
    .finally(() => {
      const again = state.checks.done(ids);
      if (again.length > 0) forgetGone(state, again);
    });
}
