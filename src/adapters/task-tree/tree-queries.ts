/**
 * Questions a view asks of a {@link TaskTreeState}: the approvals waiting, the tokens each
 * agent used, the rows in drawing order.
 *
 * @module
 */
import type { JsonValue } from '../../events/json.js';
import { childrenWaiting } from './child-list.js';
import { waitingCalls } from './tool-records.js';
import type { TaskTreeState, TreeNode } from './tree-state.js';

/** A tool call waiting for a human, anywhere in the tree. */
export interface WaitingApproval {
  /** The approval's unique id: what the answer names. */
  readonly approvalId: string;
  /** The task that asks (`undefined`: the main agent); sent with the answer, for the server to check. */
  readonly taskId: string | undefined;
  /** The node that asks (its `key`). */
  readonly nodeKey: string;
  /** Who asks: the agent, with `#index` for a task. */
  readonly who: string;
  /** The model's id for the call. */
  readonly callId: string;
  /** The tool the call would run. */
  readonly toolName: string;
  /** The call's arguments, whole, as they will run (the approval's: a typed tool's checked value). */
  readonly args: JsonValue;
  /** Why approval is needed. */
  readonly reason: string;
}

/**
 * Every approval still waiting for a decision, in tree order. A page asks this each frame:
 * it goes down only into the tasks with some waiting under them (`waitingInSubtree`, kept by
 * the reducer; one made elsewhere without it is looked into), finds those among a node's
 * children without making its array, and of a node's calls looks at the waiting ones only.
 * With none waiting it costs nothing; with one among 10,000 tasks, about the log of them.
 *
 * @example
 * ```ts
 * for (const approval of waitingApprovals(state)) showCard(approval);
 * ```
 */
export function waitingApprovals(state: TaskTreeState): WaitingApproval[] {
  const waiting: WaitingApproval[] = [];
  const visit = (node: TreeNode): void => {
    if (node.waitingInSubtree === 0) return;
    for (const call of waitingCalls(node)) {
      if (call.status !== 'waiting' || call.approval === undefined || call.approval.decision !== undefined) continue;
      waiting.push({
        approvalId: call.approval.approvalId, taskId: node.taskId, nodeKey: node.key, who: nodeName(node),
        callId: call.callId, toolName: call.toolName, args: call.args, reason: call.approval.reason,
      });
    }
    for (const child of childrenWaiting(node)) visit(child);
  };
  if (state.root !== undefined) visit(state.root);
  return waiting;
}

/**
 * How many approvals wait for a decision in the whole tree: what a view asks after each
 * event while one waits. The root's `waitingInSubtree`, one number read; a tree made
 * elsewhere without it is counted.
 *
 * @example
 * ```ts
 * if (waitingApprovalTotal(state) > 0) stopRedrawing();
 * ```
 */
export function waitingApprovalTotal(state: TaskTreeState): number {
  return state.root?.waitingInSubtree ?? waitingApprovals(state).length;
}

/**
 * The tokens each agent used itself (a node's end metrics count its tasks too; those are
 * taken off and counted for their own agents), by agent name, in order of first appearance.
 * Nodes that have not ended yet count nothing.
 *
 * @example
 * ```ts
 * tokensByAgent(state); // Map { 'main' => 900, 'explore' => 500 }
 * ```
 */
export function tokensByAgent(state: TaskTreeState): Map<string, number> {
  const totals = new Map<string, number>();
  for (const { node } of treeRows(state)) {
    if (node.tokens === undefined) continue;
    const own = node.tokens - node.children.reduce((sum, child) => sum + (child.tokens ?? 0), 0);
    totals.set(node.agentName, (totals.get(node.agentName) ?? 0) + Math.max(0, own));
  }
  return totals;
}

/** One row of the tree in drawing order: the node and how deep it is (0: the run). */
export interface TreeRow {
  /** The run or task. */
  readonly node: TreeNode;
  /** 0 for the run, 1 for its tasks, 2 for theirs... */
  readonly depth: number;
}

/**
 * The tree's nodes depth first, parents before their tasks: the rows of a list or a timeline.
 *
 * @example
 * ```ts
 * treeRows(state).map(({ node, depth }) => `${'  '.repeat(depth)}${node.agentName}`);
 * ```
 */
export function treeRows(state: TaskTreeState): TreeRow[] {
  const rows: TreeRow[] = [];
  const visit = (node: TreeNode, depth: number): void => {
    rows.push({ node, depth });
    for (const child of node.children) visit(child, depth + 1);
  };
  if (state.root !== undefined) visit(state.root, 0);
  return rows;
}

/** `main`, or `explore #2` for a task. */
function nodeName(node: TreeNode): string {
  return node.taskIndex === undefined ? node.agentName : `${node.agentName} #${node.taskIndex}`;
}
