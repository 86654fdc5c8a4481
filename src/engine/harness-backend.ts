import type { TaskWiring } from '../agent/agent-scope.js';
import type { ChildLauncher } from '../delegation/run-child.js';
import type { TaskTracker } from '../delegation/task-tracker.js';
import type { TaskTrackerLimits } from '../delegation/task-tracker-limits.js';
import type { ChatModel } from '../model/chat-model.js';
import type { TokenBudget } from '../model/token-budget.js';
import type { ApprovalHandler } from '../permission/approval.js';
import type { EventLog } from '../runs/event-log.js';
import type { SharedRuns } from '../runs/shared-runs.js';
import type { SessionStore } from '../session/session-store.js';

/**
 * What several processes share when an engine scales out: sessions, the event logs of runs,
 * the runs themselves, task state and the queue delegated tasks run from. `redisBackend()`
 * makes one; pass it as the engine's `backend` (and to each `HarnessWorker`). Without one, an
 * engine keeps everything in its own process (the embedded default).
 *
 * @example
 * ```ts
 * const backend = await redisBackend({ url: 'redis://127.0.0.1:6379' });
 * const engine = new HarnessEngine({ model, backend, distributeTasks: true });
 * ```
 */
export interface HarnessBackend {
  /** Where every engine and worker on the backend keeps conversations and task sessions. */
  readonly sessions: SessionStore;
  /** Where started runs (and delegated children) keep their events. */
  readonly eventLog: EventLog;
  /**
   * The started runs of every engine on the backend.
   *
   * @internal
   */
  readonly runs: SharedRuns;
  /**
   * A task tracker whose records, and background results waiting for their conversation,
   * every engine and worker on the backend shares, bounded by the engine's `taskTrackerLimits`
   * (its `undelivered*` bound the results waiting on the backend, every worker's too).
   *
   * @internal
   */
  createTracker(limits?: TaskTrackerLimits): TaskTracker;
  /**
   * Runs children on workers, for the tree of one engine: its approvals answered by
   * `approve`, its models named by the keys of `models` (`model` is the main one).
   *
   * @internal
   */
  childLauncher(wiring: LauncherWiring): ChildLauncher;
  /**
   * The token budget pool of a new run tree, counted where every worker of the backend
   * draws from it too (absent: counted in the engine's memory).
   *
   * @internal
   */
  newTokenBudget?(limit: number): TokenBudget;
}

/**
 * What a remote child launcher needs of the engine whose tree it serves.
 *
 * @internal
 */
export interface LauncherWiring {
  /** Answers the approvals the engine's children ask on workers. */
  readonly approve: ApprovalHandler | undefined;
  /** The engine's main model. */
  readonly model: ChatModel;
  /** The models definitions may name, by name (a worker finds the same names in its own). */
  readonly models: Readonly<Record<string, ChatModel>>;
  /** The engine's `approvalTimeoutMs`: how long its children's approvals on workers wait (absent: the worker's own). */
  readonly approvalTimeoutMs?: number;
}

/**
 * Where a task's child runs: with a backend, a background task always on a worker, a
 * foreground one when `distributeTasks` says so; else in this process (`undefined`).
 *
 * @example
 * ```ts
 * const launcherFor = childPlacement(remote, true);
 * launcherFor({ taskId, rootSessionId, rootRunId, background: false }); // remote
 * ```
 */
export function childPlacement(remote: ChildLauncher | undefined, distributeTasks: boolean): ((task: TaskWiring) => ChildLauncher | undefined) | undefined {
  if (!remote) return undefined;
  return (task) => (task.background || distributeTasks ? remote : undefined);
}
