import type { AgentEvent, TaskFrame } from '../../events/index.js';
import { unwrapEvent } from '../../events/index.js';
import { markInvisible } from '../visible-text.js';
import { appendTail, oneLine, tail } from './text-line.js';
import { toolLabel } from './tool-label.js';
import type { TaskTreeState, TreeNode } from './tree-state.js';

/** How much streamed text a node keeps, in UTF-16 code units (a cut start shows as `…`). */
export const TAIL_CHARS = 60;
/**
 * The deepest task the tree tracks. The engine nests one `TaskWrap` per level of delegation,
 * so a deeper event is hostile or broken input: the tree's walks are recursive (as deep as
 * the tree) and a 10,000-deep event overflowed the stack, so such an event is left out.
 */
const MAX_TREE_DEPTH = 64;

type RealEvent = ReturnType<typeof unwrapEvent>['event'];

/**
 * Folds one event into the tree (pure: returns a new state, never changes `state`). Wrapped
 * events are unwrapped and applied to the task their frames lead to, created on first sight
 * and keyed by `${parentRunId}/${taskId}`. A run's `RunEnd` marks it `done` or `failed`
 * (abnormal) and any task of it still running as `failed`, since no `RunEnd` will come.
 * An event nested more than 64 tasks deep changes nothing (see `parseNdjson`'s `maxDepth`).
 *
 * @param now - The time to record for starts (milliseconds; e.g. `Date.now()`).
 * @example
 * ```ts
 * const state = events.reduce((s, e) => reduceTree(s, e, Date.now()), createTreeState());
 * ```
 */
export function reduceTree(state: TaskTreeState, event: AgentEvent, now: number): TaskTreeState {
  const { event: inner, path } = unwrapEvent(event);
  if (path.length > MAX_TREE_DEPTH) return state;
  const root = state.root ?? rootFor(inner, path, now);
  // A queued task is the parent's event about a child: its node is one level down.
  const next =
    inner.type === 'TaskQueued'
      ? updateAt(root, [...path, { ...inner, multitask: true }], now, (node) => (node.status === 'running' && node.tail === '' ? { ...node, status: 'queued' } : node))
      : updateAt(root, path, now, (node) => apply(node, inner, now, path.length === 0));
  if (path.length === 0 && inner.type === 'RunEnd') {
    const { text, abnormal, error } = inner;
    return { root: next, result: error === undefined ? { text, abnormal } : { text, abnormal, error } };
  }
  return { ...state, root: next };
}

/**
 * Marks every node still running as `failed` with `reason`: the stream ended (error,
 * cancel) without their `RunEnd`.
 *
 * @example
 * ```ts
 * state = settleTree(state, Date.now(), 'cancelled');
 * ```
 */
export function settleTree(state: TaskTreeState, now: number, reason: string): TaskTreeState {
  return state.root === undefined ? state : { ...state, root: settle(state.root, now, reason) };
}

function settle(node: TreeNode, now: number, reason: string): TreeNode {
  const children = node.children.map((child) => settle(child, now, reason));
  if (node.status !== 'running' && node.status !== 'queued') return { ...node, children };
  const { currentTool: _tool, awaitingApproval: _approval, ...rest } = node;
  return { ...rest, status: 'failed', error: reason, endedAt: now, children };
}

function rootFor(event: RealEvent, path: readonly TaskFrame[], now: number): TreeNode {
  const first = path[0];
  // a stream joined after its RunStart: only the wrapper tells us the run's id
  const runId = first === undefined ? event.runId : first.parentRunId;
  const agentName = first === undefined ? oneLine(event.agentName) : 'run';
  return { key: runId, runId, agentName, description: '', multitask: false, status: 'running', tail: '', startedAt: now, children: [] };
}

function updateAt(node: TreeNode, path: readonly TaskFrame[], now: number, change: (n: TreeNode) => TreeNode): TreeNode {
  const [frame, ...rest] = path;
  if (frame === undefined) return change(node);
  const key = `${frame.parentRunId}/${frame.taskId}`;
  const index = node.children.findIndex((child) => child.key === key);
  const child = node.children[index] ?? taskNode(frame, key, now);
  const updated = updateAt(child, rest, now, change);
  const children = index === -1 ? [...node.children, updated] : node.children.map((c, i) => (i === index ? updated : c));
  return { ...node, children };
}

function taskNode(frame: TaskFrame, key: string, now: number): TreeNode {
  return {
    key, runId: frame.runId, agentName: oneLine(frame.taskAgentName), description: oneLine(frame.taskDescription),
    taskIndex: frame.taskIndex, multitask: frame.multitask, status: 'running', tail: '', startedAt: now, children: [],
  };
}

function apply(node: TreeNode, event: RealEvent, now: number, isRoot: boolean): TreeNode {
  switch (event.type) {
    case 'RunStart': {
      // also the restart of a resumed task under the same key
      const { currentTool: _t, awaitingApproval: _a, tokens: _k, error: _e, durationMs: _d, endedAt: _n, ...rest } = node;
      const description = isRoot ? oneLine(event.prompt) : node.description;
      return { ...rest, runId: event.runId, agentName: oneLine(event.agentName), description, status: 'running', tail: '', startedAt: now };
    }
    case 'ReasonStart':
      return { ...node, tail: '' };
    case 'ReasonDelta':
      return event.kind === 'text' ? { ...node, tail: appendTail(node.tail, event.text, TAIL_CHARS) } : node;
    case 'ToolCallStart':
      return { ...node, currentTool: toolLabel(event.toolName, event.args) };
    case 'ToolCallEnd': {
      const { currentTool: _t, ...rest } = node;
      return rest;
    }
    case 'HITLPending':
      return { ...node, awaitingApproval: markInvisible(event.toolName) };
    case 'HITLDecided': {
      const { awaitingApproval: _a, ...rest } = node;
      return rest;
    }
    case 'RunEnd': {
      const { currentTool: _t, awaitingApproval: _a, error: _e, ...rest } = node;
      const ended: TreeNode = {
        ...rest, status: event.abnormal ? 'failed' : 'done', tokens: event.metrics.totalTokens,
        durationMs: event.metrics.durationMs, tail: event.text === '' ? node.tail : tail(event.text, TAIL_CHARS),
        children: node.children.map((child) => settle(child, now, 'ended without a result')),
      };
      return event.error === undefined ? ended : { ...ended, error: oneLine(event.error) };
    }
    case 'Compaction':
      return { ...node, compactions: (node.compactions ?? 0) + 1 };
    case 'RunCancelled': {
      const { currentTool: _t, awaitingApproval: _a, ...rest } = node;
      const children = node.children.map((child) => settle(child, now, 'cancelled with its parent'));
      return { ...rest, status: 'cancelled', error: oneLine(event.reason), endedAt: now, children };
    }
    default:
      return node;
  }
}
