import type { AgentEvent } from '../../events/agent-event.js';
import { unwrapEvent, type TaskFrame } from '../../events/operators/unwrap-task-events.js';
import { toUiItem } from '../ui-dto.js';
import type { UiItem } from '../ui-item.js';
import { markInvisible } from '../visible-text.js';
import { appendTail, oneLine, tail } from '../terminal-tree/text-line.js';
import { toolLabel } from '../terminal-tree/tool-label.js';
import { approvalAsked, approvalDecided, settleTools, toolEnded } from './tool-records.js';
import type { TaskTreeState, TreeNode, TreeStatus } from './tree-state.js';

/** How much streamed text a node keeps, in UTF-16 code units (a cut start shows as `…`). */
export const TAIL_CHARS = 60;
/**
 * The deepest task the tree tracks. The engine nests one `TaskWrap` per level of delegation,
 * so a deeper item is hostile or broken input: the tree's walks are recursive (as deep as
 * the tree) and a 10,000-deep event overflowed the stack, so such an item is left out.
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
 * An item more than 64 tasks deep changes nothing.
 *
 * @param now - The time to record (milliseconds; e.g. `Date.now()`).
 * @example
 * ```ts
 * const state = events.reduce((s, e) => reduceTree(s, e, Date.now()), createTreeState());
 * ```
 */
export function reduceTree(state: TaskTreeState, input: AgentEvent | UiItem, now: number): TaskTreeState {
  // An AgentEvent has a `type`, a UiItem never does (it has a `kind`, as ReasonDelta events do too).
  const item = 'type' in input ? toUiItem(input) : input;
  if (item === undefined || item.depth > MAX_TREE_DEPTH) return state;
  let root = state.root ?? rootFor(item, now);
  // An event names every task above its own (a UI item only the innermost): rows for those not seen yet.
  if ('type' in input && item.depth > 1) root = withAncestors(root, unwrapEvent(input).path.slice(0, -1), now);
  const next = item.groupKey === undefined ? apply(root, item, now, true) : updateTask(root, item, item.groupKey, now);
  if (item.kind === 'result') {
    const { text, abnormal, error } = item;
    return { root: next, result: error === undefined ? { text, abnormal } : { text, abnormal, error } };
  }
  return { ...state, root: next };
}

/**
 * Marks every node still queued or running as `failed` (or `cancelled`) with `reason`: the
 * stream ended (an error, a cancel) without their end. Their tool calls still going end the same way.
 *
 * @param status - What they become: `failed` (default), or `cancelled` for a run someone stopped.
 * @example
 * ```ts
 * state = settleTree(state, Date.now(), 'cancelled', 'cancelled');
 * ```
 */
export function settleTree(state: TaskTreeState, now: number, reason: string, status: 'failed' | 'cancelled' = 'failed'): TaskTreeState {
  return state.root === undefined ? state : { ...state, root: settle(state.root, now, reason, status) };
}

function settle(node: TreeNode, now: number, reason: string, status: 'failed' | 'cancelled'): TreeNode {
  const children = node.children.map((child) => settle(child, now, reason, status));
  if (node.status !== 'running' && node.status !== 'queued') return { ...node, children };
  const { currentTool: _tool, awaitingApproval: _approval, ...rest } = node;
  return { ...rest, status, error: reason, endedAt: now, tools: settleTools(node.tools, status, reason), children };
}

function rootFor(item: UiItem, now: number): TreeNode {
  // a stream joined after its run-start: only the task's parent run names the run
  const runId = item.groupKey === undefined ? item.runId : (item.parentRunId ?? item.runId);
  const agentName = item.groupKey === undefined ? oneLine(item.agentName) : 'run';
  return { key: runId, runId, agentName, description: '', multitask: false, status: 'running', tail: '', tools: [], startedAt: now, children: [] };
}

/** Applies a task's item to its node, making the node under its parent on first sight. */
function updateTask(root: TreeNode, item: UiItem, key: string, now: number): TreeNode {
  const path = findPath(root, (node) => node.key === key);
  if (path !== undefined) return updateAt(root, path, (node) => apply(node, item, now, false));
  const parent = findPath(root, (node) => node.runId === item.parentRunId) ?? [];
  const created = apply(taskNode(item, key, now), item, now, false);
  return updateAt(root, parent, (node) => ({ ...node, children: withChild(node.children, created) }));
}

/**
 * The children with `child` added: after the others, except that a multitask child goes
 * before the later items of its own call (a queued #2 may be seen before #1 starts).
 */
function withChild(children: readonly TreeNode[], child: TreeNode): TreeNode[] {
  const call = callOf(child);
  const at = child.multitask ? children.findIndex((other) => other.multitask && callOf(other) === call && (other.taskIndex ?? 0) > (child.taskIndex ?? 0)) : -1;
  return at === -1 ? [...children, child] : [...children.slice(0, at), child, ...children.slice(at)];
}

/** The run that delegated a task (the first part of its key). */
function callOf(node: TreeNode): string {
  return node.key.slice(0, node.key.lastIndexOf('/'));
}

/** Makes the nodes of the outer frames that do not exist yet, each under its parent run. */
function withAncestors(root: TreeNode, frames: readonly TaskFrame[], now: number): TreeNode {
  let tree = root;
  for (const frame of frames) {
    const key = `${frame.parentRunId}/${frame.taskId}`;
    if (findPath(tree, (node) => node.key === key) !== undefined) continue;
    const item = { kind: 'task-start', ...frame, agentName: frame.taskAgentName, depth: 0, groupKey: key, sessionId: frame.taskId, prompt: '' } as const;
    const parent = findPath(tree, (node) => node.runId === frame.parentRunId) ?? [];
    tree = updateAt(tree, parent, (node) => ({ ...node, children: withChild(node.children, taskNode(item, key, now)) }));
  }
  return tree;
}

/** The child indexes leading from `node` to the first node `match` accepts (depth first). */
function findPath(node: TreeNode, match: (node: TreeNode) => boolean): number[] | undefined {
  if (match(node)) return [];
  for (let i = 0; i < node.children.length; i += 1) {
    const below = findPath(node.children[i]!, match);
    if (below !== undefined) return [i, ...below];
  }
  return undefined;
}

function updateAt(node: TreeNode, path: readonly number[], change: (n: TreeNode) => TreeNode): TreeNode {
  const [index, ...rest] = path;
  if (index === undefined) return change(node);
  return { ...node, children: node.children.map((child, i) => (i === index ? updateAt(child, rest, change) : child)) };
}

function taskNode(item: UiItem, key: string, now: number): TreeNode {
  return {
    key,
    // A queued task has no run yet: its item carries the delegating run's id, which stays the parent's.
    runId: item.kind === 'task-queued' ? '' : item.runId,
    ...(item.taskId === undefined ? {} : { taskId: item.taskId }),
    agentName: oneLine(item.taskAgentName ?? item.agentName), description: oneLine(item.taskDescription ?? ''),
    ...(item.taskIndex === undefined ? {} : { taskIndex: item.taskIndex }),
    multitask: item.multitask ?? false, status: 'running', tail: '', tools: [], startedAt: now, children: [],
  };
}

function apply(node: TreeNode, item: UiItem, now: number, isRoot: boolean): TreeNode {
  switch (item.kind) {
    case 'run-start':
    case 'task-start': {
      // also the restart of a resumed task under the same key (its earlier tool calls stay)
      const { currentTool: _t, awaitingApproval: _a, tokens: _k, error: _e, durationMs: _d, endedAt: _n, step: _s, ...rest } = node;
      const description = isRoot ? oneLine(item.prompt) : node.description;
      return { ...rest, runId: item.runId, agentName: oneLine(item.agentName), description, status: 'running', tail: '', startedAt: now };
    }
    case 'task-queued':
      return node.status === 'running' && node.tail === '' && node.tools.length === 0 ? { ...node, status: 'queued', queuedAt: now } : node;
    case 'text-delta':
      // the last step's text stays until the next step streams some: no flicker to empty
      return item.step === node.step
        ? { ...node, tail: appendTail(node.tail, item.text, TAIL_CHARS) }
        : { ...node, step: item.step, tail: appendTail('', item.text, TAIL_CHARS) };
    case 'tool-start': {
      const label = toolLabel(item.toolName, item.args);
      return { ...node, currentTool: label, tools: [...node.tools, { callId: item.callId, toolName: item.toolName, args: item.args, label, step: item.step, status: 'running' }] };
    }
    case 'tool-end': {
      const { currentTool: _t, ...rest } = node;
      return { ...rest, tools: toolEnded(node.tools, item) };
    }
    case 'approval-pending':
      return { ...node, awaitingApproval: markInvisible(item.toolName), tools: approvalAsked(node.tools, item) };
    case 'approval-decided': {
      const { awaitingApproval: _a, ...rest } = node;
      return { ...rest, tools: approvalDecided(node.tools, item) };
    }
    case 'task-end':
    case 'result': {
      const { currentTool: _t, awaitingApproval: _a, error: _e, ...rest } = node;
      const status: TreeStatus = item.abnormal ? 'failed' : 'done';
      const ended: TreeNode = {
        ...rest, status, tokens: item.metrics.totalTokens, durationMs: item.metrics.durationMs, endedAt: now,
        tail: item.text === '' ? node.tail : tail(item.text, TAIL_CHARS), tools: settleTools(node.tools, 'failed', 'the run ended first'),
        children: node.children.map((child) => settle(child, now, 'ended without a result', 'failed')),
      };
      return item.error === undefined ? ended : { ...ended, error: oneLine(item.error) };
    }
    case 'task-cancelled': {
      const { currentTool: _t, awaitingApproval: _a, ...rest } = node;
      const reason = oneLine(item.reason);
      const children = node.children.map((child) => settle(child, now, 'cancelled with its parent', 'cancelled'));
      return { ...rest, status: 'cancelled', error: reason, endedAt: now, tools: settleTools(node.tools, 'cancelled', reason), children };
    }
    case 'compaction':
      return { ...node, compactions: (node.compactions ?? 0) + 1 };
    default:
      return node; // thinking, plans, budgets and warnings change no row
  }
}
