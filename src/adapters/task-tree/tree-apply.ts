/**
 * What one UI item does to one node of the task tree, and the nodes it makes: the part of
 * the reducer that does not care where the node is.
 *
 * @module
 */
import type { UiItem } from '../ui-item.js';
import { appendTail, markedLine, tail } from '../terminal-tree/text-line.js';
import { shownTreeName, toolLabel } from '../terminal-tree/tool-label.js';
import { waitingAmong } from './child-list.js';
import { approvalAsked, approvalDecided, toolCount, toolEnded, toolsSettled, toolStarted, withTools } from './tool-records.js';
import type { TreeNode, TreeStatus } from './tree-state.js';

/** How much streamed text a node keeps, in UTF-16 code units (a cut start shows as `…`). */
export const TAIL_CHARS = 60;

/** How an end settles what still runs under its node. */
export interface Settling {
  readonly reason: string;
  readonly status: 'failed' | 'cancelled';
}

/**
 * Marks `node` and what still runs under it as `status`, with `reason`. A node already ended
 * keeps its status, but what still goes in it (a tree made elsewhere: the reducer leaves
 * nothing, see `withTools`) ends too, so no approval of it waits after the stream is settled.
 */
export function settle(node: TreeNode, now: number, reason: string, status: 'failed' | 'cancelled'): TreeNode {
  const children = node.children.map((child) => settle(child, now, reason, status));
  if (isGoing(node)) return withChildren(settledNode(node, now, { reason, status }), children);
  const { currentTool: _tool, awaitingApproval: _approval, ...ended } = node;
  return withChildren(withTools(ended, toolsSettled(node, status, reason)), children);
}

/** `node` with `children` in place of its own, and the approvals waiting under them counted anew. */
export function withChildren(node: TreeNode, children: readonly TreeNode[]): TreeNode {
  const below = waitingAmong(children);
  return { ...node, children, waitingInSubtree: below === undefined ? undefined : node.waitingApprovalCount + below };
}

/** Whether `node` still goes: queued or running (what an end settles). */
export function isGoing(node: TreeNode): boolean {
  return node.status === 'running' || node.status === 'queued';
}

/** `node` itself settled (its children as they are): `node` when it no longer goes. */
export function settledNode(node: TreeNode, now: number, { reason, status }: Settling): TreeNode {
  if (!isGoing(node)) return node;
  const { currentTool: _tool, awaitingApproval: _approval, ...rest } = node;
  return withTools({ ...rest, status, error: reason, endedAt: now }, toolsSettled(node, status, reason));
}

/**
 * How `item` settles what still runs under the node it ends (`apply` leaves the children
 * alone): an end, the run's result, a cancel; undefined for any other item.
 */
export function settlingOf(item: UiItem): Settling | undefined {
  if (item.kind === 'task-end' || item.kind === 'result') return { reason: 'ended without a result', status: 'failed' };
  if (item.kind === 'task-cancelled') return { reason: 'cancelled with its parent', status: 'cancelled' };
  return undefined;
}

// Names (an agent's, a tool's waiting for approval) are kept as the terminal shows them,
// `shownTreeName`: escape sequences, bidi and controls marked (`<U+001B>`), not dropped unseen,
// and cut to 64 columns. The web page and other UIs draw this data as it is, so a name reads
// the same on every screen, and one a model or a hostile agent file made up stays bounded.
// A description, an error and the streamed tail (model text) are marked the same way, on one
// line (`markedLine`, `tail`): the page shows that something was there. The tail keeps its
// last 60 units; a description or an error is kept whole, and each screen cuts what it shows.

/** The root for a stream's first item: its run, or (joined after its run-start) the run a task names as its parent. */
export function rootFor(item: UiItem, now: number): TreeNode {
  // a stream joined after its run-start: only the task's parent run names the run
  const runId = item.groupKey === undefined ? item.runId : (item.parentRunId ?? item.runId);
  const agentName = item.groupKey === undefined ? shownTreeName(item.agentName) : 'run';
  return { key: runId, runId, agentName, description: '', multitask: false, status: 'running', tail: '', tools: [], toolCallCount: 0, waitingApprovalCount: 0, waitingInSubtree: 0, startedAt: now, children: [] };
}

/** A new node for a task's first item. */
export function taskNode(item: UiItem, key: string, now: number): TreeNode {
  return {
    key,
    // A queued task has no run yet: its item carries the delegating run's id, which stays the parent's.
    runId: item.kind === 'task-queued' ? '' : item.runId,
    ...(item.taskId === undefined ? {} : { taskId: item.taskId }),
    agentName: shownTreeName(item.taskAgentName ?? item.agentName), description: markedLine(item.taskDescription ?? ''),
    ...(item.taskIndex === undefined ? {} : { taskIndex: item.taskIndex }),
    multitask: item.multitask ?? false, status: 'running', tail: '', tools: [], toolCallCount: 0, waitingApprovalCount: 0, waitingInSubtree: 0, startedAt: now, children: [],
  };
}

/** `node` after `item`, its children aside (see {@link settlingOf}); `isRoot` when it is the streamed run's own node. */
export function apply(node: TreeNode, item: UiItem, now: number, isRoot: boolean): TreeNode {
  switch (item.kind) {
    case 'run-start':
    case 'task-start': {
      // also the restart of a resumed task under the same key (its earlier tool calls stay)
      const { currentTool: _t, awaitingApproval: _a, tokens: _k, error: _e, durationMs: _d, endedAt: _n, step: _s, ...rest } = node;
      const description = isRoot ? markedLine(item.prompt) : node.description;
      return { ...rest, runId: item.runId, agentName: shownTreeName(item.agentName), description, status: 'running', tail: '', startedAt: now };
    }
    case 'task-queued':
      return node.status === 'running' && node.tail === '' && toolCount(node) === 0 ? { ...node, status: 'queued', queuedAt: now } : node;
    case 'text-delta':
      // the last step's text stays until the next step streams some: no flicker to empty
      return item.step === node.step
        ? { ...node, tail: appendTail(node.tail, item.text, TAIL_CHARS) }
        : { ...node, step: item.step, tail: appendTail('', item.text, TAIL_CHARS) };
    case 'tool-start': {
      const label = toolLabel(item.toolName, item.args);
      const record = { callId: item.callId, toolName: item.toolName, args: item.args, label, step: item.step, status: 'running' } as const;
      // an ended node runs nothing: a late start is kept as a call, ended (see `withTools`), not shown as running
      return withTools(isGoing(node) ? { ...node, currentTool: label } : { ...node }, toolStarted(node, record));
    }
    case 'tool-end': {
      const { currentTool: _t, ...rest } = node;
      return withTools(rest, toolEnded(node, item));
    }
    case 'approval-pending':
      // an ended node waits for no one: a late request is kept on its call, ended (see `withTools`), with no card
      return withTools(isGoing(node) ? { ...node, awaitingApproval: shownTreeName(item.toolName) } : { ...node }, approvalAsked(node, item));
    case 'approval-decided': {
      const { awaitingApproval: _a, ...rest } = node;
      return withTools(rest, approvalDecided(node, item));
    }
    case 'task-end':
    case 'result': {
      const { currentTool: _t, awaitingApproval: _a, error: _e, ...rest } = node;
      const status: TreeStatus = item.abnormal ? 'failed' : 'done';
      const ended: TreeNode = {
        ...rest, status, tokens: item.metrics.totalTokens, durationMs: item.metrics.durationMs, endedAt: now,
        tail: item.text === '' ? node.tail : tail(item.text, TAIL_CHARS),
      };
      return withTools(item.error === undefined ? ended : { ...ended, error: markedLine(item.error) }, toolsSettled(node, 'failed', 'the run ended first'));
    }
    case 'task-cancelled': {
      const { currentTool: _t, awaitingApproval: _a, ...rest } = node;
      const reason = markedLine(item.reason);
      return withTools({ ...rest, status: 'cancelled', error: reason, endedAt: now }, toolsSettled(node, 'cancelled', reason));
    }
    case 'compaction':
      return { ...node, compactions: (node.compactions ?? 0) + 1 };
    default:
      return node; // thinking, plans, budgets and warnings change no row
  }
}
