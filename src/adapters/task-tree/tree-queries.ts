/**
 * Questions a view asks of a {@link TaskTreeState}: the approvals waiting, the tokens each
 * agent used, the rows in drawing order.
 *
 * @module
 */
import type { JsonValue } from '../../events/json.js';
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
 * it looks at the calls of the nodes whose `waitingApprovalCount` is not 0, and of those at
 * the waiting calls only (never a node's whole list: 20,000 calls cost what one does).
 *
 * @example
 * ```ts
 * for (const approval of waitingApprovals(state)) showCard(approval);
 * ```
 */
export function waitingApprovals(state: TaskTreeState): WaitingApproval[] {
  const waiting: WaitingApproval[] = [];
  for (const { node } of treeRows(state)) {
    for (const call of waitingCalls(node)) {
      if (call.status !== 'waiting' || call.approval === undefined || call.approval.decision !== undefined) continue;
      waiting.push({
        approvalId: call.approval.approvalId, taskId: node.taskId, nodeKey: node.key, who: nodeName(node),
        callId: call.callId, toolName: call.toolName, args: call.args, reason: call.approval.reason,
      });
    }
  }
  return waiting;
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
