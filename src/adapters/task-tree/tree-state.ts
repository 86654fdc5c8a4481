/**
 * The state of a run's task tree, as {@link reduceTree} builds it from UI items (or events):
 * the one picture the terminal tree and the browser page both draw.
 *
 * @module
 */
import type { JsonValue } from '../../events/json.js';

/** Where a run (the main one or a task) stands: five distinct states, never two at once. */
export type TreeStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** Where one tool call stands: `waiting` while it waits for a human's approval. */
export type ToolCallStatus = 'running' | 'waiting' | 'done' | 'failed' | 'cancelled';

/** A human's part in a tool call: the question, then (once answered) the decision. */
export interface ToolCallApproval {
  /** The approval's unique id (what an answer names). */
  readonly approvalId: string;
  /** Why approval was needed, naming the rule that asked. */
  readonly reason: string;
  /** The decision once made; absent while it waits. An `always` answer shows as `approve`. */
  readonly decision?: 'approve' | 'reject';
  /** The decider's note, when there is one. */
  readonly comment?: string;
  /** True when nobody answered in time (the call was rejected). */
  readonly timedOut?: boolean;
}

/** One tool call of a run, kept after it ended: what it was asked, what came of it. */
export interface ToolCallRecord {
  /** The model's id for the call (unique within its run, not across tasks). */
  readonly callId: string;
  /** The tool the model named. */
  readonly toolName: string;
  /** The call's arguments, whole: as the model sent them, then, once it asks for approval, as they will run (a typed tool's checked value). */
  readonly args: JsonValue;
  /** The call in a few words, e.g. `read src/a.ts` (invisible characters marked). */
  readonly label: string;
  /** The step that asked for it. */
  readonly step: number;
  /** Where it stands. */
  readonly status: ToolCallStatus;
  /**
   * The tool's answer (what the model read) as a page may draw it: cut to 2,000 characters,
   * its controls and invisible characters marked (`<U+001B>`, `<U+202E>`), its line breaks
   * kept; absent while it runs.
   */
  readonly result?: string;
  /** Why it failed or was refused, cut and marked as `result` is. */
  readonly error?: string;
  /** Its duration as the engine measured it (approval wait included). */
  readonly durationMs?: number;
  /** The approval it needed, if it needed one. */
  readonly approval?: ToolCallApproval;
}

/** How much of a tool's answer a record keeps, in UTF-16 code units (the rest is counted, not kept). */
export const RESULT_CHARS = 2000;

/** The main run or one delegated task, with its own tasks as children. */
export interface TreeNode {
  /** The main run's `runId`, or `${parentRunId}/${taskId}` for a task (never the agent name). */
  readonly key: string;
  /** The run's id (a resumed task gets a new run under the same key; `''` while queued: it has none yet). */
  readonly runId: string;
  /** The task's id (what `cancelTask` takes); absent for the main run. */
  readonly taskId?: string;
  /** The agent running it (`main` for the main run), as the terminal shows it: invisible characters and escape sequences marked (`<U+001B>`), cut to 64 columns. */
  readonly agentName: string;
  /** The task's description; for the main run, its prompt on one line. */
  readonly description: string;
  /** The multitask `index` (1 for `task`); absent for the main run. */
  readonly taskIndex?: number;
  /** True when the task came from `multitask`; false for `task` and the main run. */
  readonly multitask: boolean;
  /**
   * `queued` while a multitask child waits for a slot (its `task-queued`), then `running`
   * until its end (`done`, or `failed` when abnormal), its `task-cancelled` (`cancelled`),
   * or until the stream ends without either (see `settleTree`). A task told of (or restarted)
   * after its parent ended is `failed` (`cancelled` under a cancelled parent) at once.
   */
  readonly status: TreeStatus;
  /** The tool running now, with its main argument (e.g. `read src/a.ts`). */
  readonly currentTool?: string;
  /** The tool waiting for a human decision, its name marked and cut as `agentName` is. */
  readonly awaitingApproval?: string;
  /** The step whose text `tail` shows. */
  readonly step?: number;
  /** The end of the text streamed in the current step (or of the final text), one line; `…` first when its start was cut. */
  readonly tail: string;
  /**
   * Its tool calls in the order they started, ended ones included. On a node with many, an
   * enumerable getter that makes the array on first read and gives that same array after (so
   * an item copies no list of calls); spread, serialised or compared, it is a plain array. A
   * state whose node's calls did not change keeps that node's array; a change makes a new one.
   */
  readonly tools: readonly ToolCallRecord[];
  /**
   * How many calls `tools` holds. A view drawing a count each frame reads this, not
   * `tools.length`: on a node with many calls, reading `tools` makes its array (a copy of
   * every call) for each new state of the node. Kept by the reducer with every change.
   */
  readonly toolCallCount: number;
  /**
   * How many of its calls wait for a human's decision (status `waiting`, approval not yet
   * decided): what `waitingApprovals` lists for this node. Kept by the reducer with every
   * change, so a reader skips a node with none without looking at its calls.
   */
  readonly waitingApprovalCount: number;
  /**
   * How many calls wait for a human's decision in this node and every task below it: the
   * root's is the whole tree's, so a view asking "does an approval wait?" reads one number
   * instead of walking the tree (a walk per event made 10,000 task ends take minutes while
   * one approval waited). Kept by the reducer with every change; absent on a node made
   * elsewhere, whose subtree is then counted.
   */
  readonly waitingInSubtree?: number;
  /** Total tokens, from the run's end metrics (its own tasks' included). */
  readonly tokens?: number;
  /** How many times the run's session was compacted (its `compaction` items); absent: never. */
  readonly compactions?: number;
  /** Why the run failed or was cancelled. */
  readonly error?: string;
  /** When it was queued (the `now` of its `task-queued`); absent when it never waited. */
  readonly queuedAt?: number;
  /** When the reducer saw the run start (the `now` it was given). */
  readonly startedAt: number;
  /** The run's own duration from its end metrics. */
  readonly durationMs?: number;
  /** When the reducer saw it end (an end, a cancel, or `settleTree`). */
  readonly endedAt?: number;
  /**
   * Tasks this run delegated, in the order they appeared. On a node with many, an enumerable
   * getter that makes the array on first read and gives that same array after (so an item
   * copies no list of siblings); spread, serialised or compared, it is a plain array.
   */
  readonly children: readonly TreeNode[];
}

/** The whole tree plus the streamed run's final answer once it is known. */
export interface TaskTreeState {
  /** The streamed run; undefined until its first item. */
  readonly root?: TreeNode;
  /** The streamed run's own end (its `result` item). */
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
 * How long a node has run: its end metrics' duration once ended, else up to `now`.
 *
 * @example
 * ```ts
 * elapsedMs(state.root!, Date.now());
 * ```
 */
export function elapsedMs(node: TreeNode, now: number): number {
  return node.durationMs ?? Math.max(0, (node.endedAt ?? now) - node.startedAt);
}
