/**
 * The state of a run's task tree, as {@link reduceTree} builds it from events.
 *
 * @module
 */

/** Where a run (the main one or a task) stands. */
export type TreeStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** The main run or one delegated task, with its own tasks as children. */
export interface TreeNode {
  /** The main run's `runId`, or `${parentRunId}/${taskId}` for a task (never the agent name). */
  readonly key: string;
  /** The run's id (a resumed task gets a new run under the same key). */
  readonly runId: string;
  /** The agent running it (`main` for the main run). */
  readonly agentName: string;
  /** The task's description; for the main run, its prompt on one line. */
  readonly description: string;
  /** The multitask `index` (1 for `task`); absent for the main run. */
  readonly taskIndex?: number;
  /** True when the task came from `multitask`; false for `task` and the main run. */
  readonly multitask: boolean;
  /**
   * `queued` while a multitask child waits for a slot (its `TaskQueued`), then `running`
   * until its `RunEnd` (`done`, or `failed` when abnormal), its `RunCancelled`
   * (`cancelled`), or until the stream ends without either (`failed`).
   */
  readonly status: TreeStatus;
  /** The tool running now, with its main argument (e.g. `read src/a.ts`). */
  readonly currentTool?: string;
  /** The tool waiting for a human decision. */
  readonly awaitingApproval?: string;
  /** The end of the text streamed in the current step (or of the final text), one line; `…` first when its start was cut. */
  readonly tail: string;
  /** Total tokens, from the run's `RunEnd` metrics. */
  readonly tokens?: number;
  /** How many times the run's session was compacted (its `Compaction` events); absent: never. */
  readonly compactions?: number;
  /** Why the run failed or was cancelled. */
  readonly error?: string;
  /** When the reducer first saw the run (the `now` it was given). */
  readonly startedAt: number;
  /** The run's own duration from its `RunEnd` metrics. */
  readonly durationMs?: number;
  /** When the run ended without a `RunEnd` (see `settleTree`). */
  readonly endedAt?: number;
  /** Tasks this run delegated, in the order they appeared. */
  readonly children: readonly TreeNode[];
}

/** The whole tree plus the streamed run's final answer once it is known. */
export interface TaskTreeState {
  /** The streamed run; undefined until its first event. */
  readonly root?: TreeNode;
  /** The unwrapped `RunEnd`'s outcome. */
  readonly result?: {
    /** The final answer. */
    readonly text: string;
    /** True when the run ended on a failure (see `error`). */
    readonly abnormal: boolean;
    /** The failure's message when `abnormal`. */
    readonly error?: string;
  };
}

/**
 * An empty tree, the starting point for {@link reduceTree}.
 *
 * @example
 * ```ts
 * let state = createTreeState();
 * for (const event of events) state = reduceTree(state, event, Date.now());
 * ```
 */
export function createTreeState(): TaskTreeState {
  return {};
}

/**
 * How long a node has run: its `RunEnd` duration once ended, else up to `now`.
 *
 * @example
 * ```ts
 * elapsedMs(state.root!, Date.now());
 * ```
 */
export function elapsedMs(node: TreeNode, now: number): number {
  return node.durationMs ?? Math.max(0, (node.endedAt ?? now) - node.startedAt);
}
