import type { AgentEvent } from '../../events/agent-event.js';
import { isWellFormedEvent } from '../../events/guards.js';
import { unwrapEvent, type TaskFrame } from '../../events/operators/unwrap-task-events.js';
import { toUiItem } from '../ui-dto.js';
import type { UiItem } from '../ui-item.js';
import { lateSettling, nodeAt, settledUnder } from './late-tasks.js';
import { changeKeepingLazy } from './lazy-fields.js';
import { settleBelow } from './settle-below.js';
import { isWellFormedUiItem } from './well-formed-item.js';
import { markedLine } from '../terminal-tree/text-line.js';
import { apply, isGoing, rootFor, settle, settledNode, settlingOf, taskNode } from './tree-apply.js';
import { addChild, carrySettledIndex, changeRun, noteGoing, openIndex, pathOf, runPath, settleIndex, updateAt, type TreeIndex } from './tree-index.js';
import type { TaskTreeState, TreeNode } from './tree-state.js';

export { TAIL_CHARS } from './tree-apply.js';

/**
 * The deepest task the tree tracks. The engine nests one `TaskWrap` per level of delegation,
 * so a deeper item is hostile or broken input: the tree's walks are recursive (as deep as
 * the tree) and a 10,000-deep event overflowed the stack, so such an item is left out. A task
 * goes under the node running its `parentRunId`, so the bound is kept on where it would go
 * too: a chain of flat `TaskWrap`s, each naming the last one's run as its parent, built a
 * tree 7,000 deep (each item costing its depth, then a stack overflow out of the reducer).
 */
const MAX_TREE_DEPTH = 64;

/**
 * Folds one UI item (or an event, projected with `toUiItem` first) into the tree: the one
 * reducer behind the terminal tree and the browser page. Pure and browser-safe: it returns
 * a new state and never changes `state`.
 *
 * A task's items find their node by `groupKey` (made on first sight under the node running
 * `parentRunId`, else under the root). Per node it keeps the status (queued, running, done,
 * failed, cancelled: one at a time), the current tool, the end of the streamed text, every
 * tool call in order (arguments, result or error, approval), tokens and times. An end marks
 * the run `done` or `failed` and any task of it still going as `failed` (no end will come
 * for them); a `task-cancelled` marks the task and what still runs under it `cancelled`.
 * A node that has ended waits for no one: a tool start or approval request that comes after
 * its end is kept as a call but ended at once (no approval card stays for a finished task).
 * Nothing runs under an ended node either: a task first told of (or restarted) after its
 * parent ended is kept, but ended at once, `failed` (`cancelled` under a cancelled parent)
 * with "came after its parent run had ended", and so are its calls and its own tasks.
 * An item more than 64 tasks deep changes nothing (nor does a new task whose parent run sits
 * at the 64th level), and so does an event without the fields its type promises
 * (`isWellFormedEvent`: say, a `RunEnd` without `metrics` from a broken server), a UI item
 * without the fields its kind promises (a `text-delta` without `text`, a `result` naming a
 * task), or a value that is not an object at all (`null` parsed from a message).
 *
 * Each item costs the depth of its task (times the log of its siblings): the nodes are found
 * through an index kept beside the tree, never by walking it, and no child list nor list of
 * tool calls is copied (a state's `children` and `tools` arrays are made when first read,
 * then kept), so a run with 10,000 tasks, all under one node and arriving in any order (last
 * first too), or with 20,000 tool calls in one node, folds in near-linear time.
 *
 * @param now - The time to record (milliseconds; e.g. `Date.now()`).
 * @example
 * ```ts
 * const state = events.reduce((s, e) => reduceTree(s, e, Date.now()), createTreeState());
 * ```
 */
export function reduceTree(state: TaskTreeState, input: AgentEvent | UiItem, now: number): TaskTreeState {
  // Read from the network: `null`, a number or a broken item must leave the tree as it was.
  if (typeof input !== 'object' || input === null) return state;
  // An AgentEvent has a `type`, a UiItem never does (it has a `kind`, as ReasonDelta events do too).
  const isEvent = 'type' in input;
  if (isEvent ? !isWellFormedEvent(input) : !isWellFormedUiItem(input)) return state;
  const item = isEvent ? toUiItem(input) : input;
  if (item === undefined || item.depth > MAX_TREE_DEPTH) return state;
  const root = state.root ?? rootFor(item, now);
  const index = openIndex(root);
  let tree = root;
  let placed = true;
  // An event names every task above its own (a UI item only the innermost): rows for those not seen yet.
  if (isEvent && item.depth > 1) ({ tree, placed } = withAncestors(index, tree, unwrapEvent(input).path.slice(0, -1), now));
  const next = !placed ? tree : item.groupKey === undefined ? applyAt(index, tree, [], item, now, true) : updateTask(index, tree, item, item.groupKey, now);
  settleIndex(index, next);
  if (item.kind === 'result') {
    const { text, abnormal, error } = item;
    return { root: next, result: error === undefined ? { text, abnormal } : { text, abnormal, error } };
  }
  return { ...state, root: next };
}

/**
 * Marks every node still queued or running as `failed` (or `cancelled`) with `reason`: the
 * stream ended (an error, a cancel) without their end. Their tool calls still going end the same way.
 * `reason` is kept as one line with its controls and escape sequences marked (`<U+001B>`), as the
 * tree's other texts are (see `markedLine`): drawn on terminals and the page, it shows that
 * something was there instead of dropping it unseen.
 *
 * @param status - What they become: `failed` (default), or `cancelled` for a run someone stopped.
 * @example
 * ```ts
 * state = settleTree(state, Date.now(), 'cancelled', 'cancelled');
 * ```
 */
export function settleTree(state: TaskTreeState, now: number, reason: string, status: 'failed' | 'cancelled' = 'failed'): TaskTreeState {
  if (state.root === undefined) return state;
  // the reason is often an error's message (a tool's, a server's): made one marked line, as the events' texts are
  const root = settle(state.root, now, markedLine(reason), status);
  carrySettledIndex(state.root, root); // the same nodes in the same places
  return { ...state, root };
}

/** Applies a task's item to its node, making the node under its parent on first sight (none deeper than {@link MAX_TREE_DEPTH}). */
function updateTask(index: TreeIndex, root: TreeNode, item: UiItem, key: string, now: number): TreeNode {
  const path = pathOf(index, key);
  if (path !== undefined) return applyAt(index, root, path, item, now, false);
  const parentPath = runPath(index, item.parentRunId) ?? [];
  if (parentPath.length >= MAX_TREE_DEPTH) return root;
  return addChild(index, root, parentPath, settledUnder(nodeAt(root, parentPath), apply(taskNode(item, key, now), item, now, false), now));
}

/**
 * Applies an item to the node at `path`, keeping the index up to date (a start names the
 * node's run; an end stops it going), and settles what an end leaves going below it. A node
 * left going under a parent that has ended (a restart after the parent's end) is settled at
 * once, with what goes below it.
 */
function applyAt(index: TreeIndex, root: TreeNode, path: readonly number[], item: UiItem, now: number, isRoot: boolean): TreeNode {
  const late = path.length === 0 ? undefined : lateSettling(nodeAt(root, path.slice(0, -1)));
  return updateAt(root, path, (node) => {
    const applied = changeKeepingLazy(node, (fields) => {
      const next = apply(fields, item, now, isRoot);
      changeRun(index, node.key, node.runId, next.runId);
      return next;
    });
    const lateNow = late !== undefined && isGoing(applied) ? late : undefined;
    const changed = lateNow === undefined ? applied : changeKeepingLazy(applied, (fields) => settledNode(fields, now, lateNow));
    if (isGoing(node) !== isGoing(changed)) noteGoing(index, node.key, isGoing(changed) ? 1 : -1);
    const settling = settlingOf(item) ?? lateNow;
    return settling === undefined ? changed : settleBelow(index, changed, now, settling);
  });
}

/**
 * Makes the nodes of the outer frames that do not exist yet, each under its parent run;
 * `placed` false when one would go deeper than {@link MAX_TREE_DEPTH} (the item is then left out).
 */
function withAncestors(index: TreeIndex, root: TreeNode, frames: readonly TaskFrame[], now: number): { tree: TreeNode; placed: boolean } {
  let tree = root;
  for (const frame of frames) {
    const key = `${frame.parentRunId}/${frame.taskId}`;
    if (pathOf(index, key) !== undefined) continue;
    const item = { kind: 'task-start', ...frame, agentName: frame.taskAgentName, depth: 0, groupKey: key, sessionId: frame.taskId, prompt: '' } as const;
    const parentPath = runPath(index, frame.parentRunId) ?? [];
    if (parentPath.length >= MAX_TREE_DEPTH) return { tree, placed: false };
    tree = addChild(index, tree, parentPath, settledUnder(nodeAt(tree, parentPath), taskNode(item, key, now), now));
  }
  return { tree, placed: true };
}
