import { approvalArguments, type ApprovalArgument } from '../../adapters/approval-arguments.js';
import type { JsonValue, UiItem } from '../../client/index.js';

/** Where a run or task stands on the page. */
export type NodeStatus = 'queued' | 'running' | 'done' | 'failed';

/** One row of the tree: the run, or a task of it (keyed by `groupKey`, never by agent name). */
export interface PageNode {
  readonly key: string;
  agent: string;
  description: string;
  readonly taskIndex: number | undefined;
  status: NodeStatus;
  tool: string;
  /** The end of the current step's text. */
  tail: string;
  step: number;
  error: string;
  tokens: number | undefined;
  /** How many times its session was compacted to fit the model's context window. */
  compactions: number;
  durationMs: number | undefined;
  startedAt: number;
  endedAt: number | undefined;
  readonly children: PageNode[];
}

/** A call waiting for the human, anywhere in the tree. */
export interface PendingApproval {
  /** The approval's unique id: the card's key and what the answer names. */
  readonly approvalId: string;
  /** The task that asked (`undefined`: the main agent), sent with the answer for the server to check. */
  readonly taskId: string | undefined;
  readonly callId: string;
  /** Who asks: the agent, and `#n` for a task. */
  readonly who: string;
  readonly toolName: string;
  /** What would run: the command, path or URL, else the arguments. */
  readonly subject: string;
  /** Every argument besides the subject (a write's content, an MCP tool's arguments), whole. */
  readonly details: readonly ApprovalArgument[];
  readonly reason: string;
}

/** The page's picture of one run, folded from its UI items. */
export interface PageRun {
  root: PageNode | undefined;
  /** Each node by the id of the run it shows, so a task's items find their parent. */
  readonly byRun: Map<string, PageNode>;
  readonly byKey: Map<string, PageNode>;
  result: { readonly text: string; readonly abnormal: boolean; readonly error: string } | undefined;
  readonly approvals: Map<string, PendingApproval>;
}

const TAIL_CHARS = 120;
const MAIN_ARGUMENTS = ['command', 'path', 'pattern', 'url', 'agent_name', 'description'];

/** An empty picture. */
export function newPageRun(): PageRun {
  return { root: undefined, byRun: new Map(), byKey: new Map(), result: undefined, approvals: new Map() };
}

/**
 * Folds one item (from `toUiItem`, which unwraps the `TaskWrap`s) into the picture: the
 * node it belongs to is found by its `groupKey` (made on first sight, under the node of its
 * `parentRunId`), then updated by its kind.
 */
export function applyItem(run: PageRun, item: UiItem, now: number): void {
  const node = nodeOf(run, item, now);
  switch (item.kind) {
    case 'run-start':
    case 'task-start':
      Object.assign(node, { status: 'running', tool: '', tail: '', error: '', startedAt: now, endedAt: undefined });
      if (item.kind === 'run-start') Object.assign(node, { agent: item.agentName, description: oneLine(item.prompt) });
      break;
    case 'task-queued':
      if (node.status === 'running' && node.step === 0 && node.tool === '') Object.assign(node, { status: 'queued', tool: 'waiting for a slot' });
      break;
    case 'text-delta':
      // the last step's text stays until the next step streams some: no flicker to empty
      if (item.step !== node.step) Object.assign(node, { step: item.step, tail: '' });
      node.tail = clip(node.tail + item.text);
      break;
    case 'tool-start':
      node.tool = toolLabel(item.toolName, item.args);
      break;
    case 'tool-end':
    case 'approval-decided':
      node.tool = '';
      if (item.kind === 'approval-decided') run.approvals.delete(item.approvalId);
      break;
    case 'approval-pending': {
      node.tool = `waiting for approval: ${item.toolName}`;
      const who = item.taskIndex === undefined ? item.agentName : `${item.agentName} #${item.taskIndex}`;
      const args = approvalArguments(item.args);
      const main = args.find((a) => a.main);
      run.approvals.set(item.approvalId, {
        approvalId: item.approvalId, taskId: item.taskId, callId: item.callId, who, toolName: item.toolName,
        subject: main?.text ?? '', details: args.filter((a) => !a.main), reason: item.reason,
      });
      break;
    }
    case 'task-end':
    case 'result':
      Object.assign(node, { status: item.abnormal ? 'failed' : 'done', tool: '', error: item.error ?? '', tokens: item.metrics.totalTokens, durationMs: item.metrics.durationMs, endedAt: now });
      if (item.text) node.tail = clip(item.text);
      settle(node.children, 'ended without a result', now);
      if (item.kind === 'result') run.result = { text: item.text, abnormal: item.abnormal, error: item.error ?? '' };
      break;
    case 'task-cancelled':
      Object.assign(node, { status: 'failed', tool: '', error: `cancelled: ${item.reason}`, endedAt: now });
      settle(node.children, 'cancelled', now);
      break;
    case 'compaction':
      node.compactions += 1;
      break;
    default:
      break; // thinking, plans and warnings are not drawn
  }
}

/** Marks what is still running as failed, saying why (the stream stopped without their end). */
export function settle(nodes: readonly PageNode[], reason: string, now: number): void {
  for (const node of nodes) {
    if (node.status === 'running' || node.status === 'queued') Object.assign(node, { status: 'failed', tool: '', error: reason, endedAt: now });
    settle(node.children, reason, now);
  }
}

function nodeOf(run: PageRun, item: UiItem, now: number): PageNode {
  run.root ??= newNode(item.groupKey === undefined ? item.runId : (item.parentRunId ?? 'run'), 'main', '', undefined, now);
  if (item.groupKey === undefined) return run.byRun.get(item.runId) ?? (run.byRun.set(item.runId, run.root), run.root);
  let node = run.byKey.get(item.groupKey);
  if (node === undefined) {
    node = newNode(item.groupKey, item.taskAgentName ?? item.agentName, oneLine(item.taskDescription ?? ''), item.taskIndex, now);
    (run.byRun.get(item.parentRunId ?? '') ?? run.root).children.push(node);
    run.byKey.set(item.groupKey, node);
  }
  // A queued task has no run yet: its item carries the delegating run's id, which stays the parent's.
  if (item.kind !== 'task-queued') run.byRun.set(item.runId, node);
  return node;
}

function newNode(key: string, agent: string, description: string, taskIndex: number | undefined, now: number): PageNode {
  return { key, agent, description, taskIndex, status: 'running', tool: '', tail: '', step: 0, error: '', tokens: undefined, compactions: 0, durationMs: undefined, startedAt: now, endedAt: undefined, children: [] };
}

/** A tool call in a few words: its name and main argument (`multitask ×3` for a multitask). */
export function toolLabel(name: string, args: JsonValue): string {
  const record = asRecord(args);
  if (record === undefined) return name;
  const tasks = record.tasks;
  if (Array.isArray(tasks)) return `${name} ×${tasks.length}`;
  const value = firstString(record, MAIN_ARGUMENTS);
  return value === undefined ? name : `${name} ${oneLine(value).slice(0, 60)}`;
}

function asRecord(value: JsonValue): Readonly<Record<string, JsonValue>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Readonly<Record<string, JsonValue>>) : undefined;
}

function firstString(record: Readonly<Record<string, JsonValue>>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** The end of a text on one line, marked when cut (no trim: streamed deltas end and start with spaces). */
function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > TAIL_CHARS ? `…${line.slice(1 - TAIL_CHARS)}` : line;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
