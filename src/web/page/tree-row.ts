/**
 * One row of the task tree on the page: its elements, made once, and how a node is written
 * into them. The tree (`TreeView`) decides when a row is written and owns its stop button's
 * behaviour (settling, clicks); this module only writes what the node says.
 *
 * @module
 */
import { count } from './count.js';
import { element, show, type DomButton, type DomElement } from './dom.js';
import { elapsedMs, type TreeNode, type TreeStatus } from './client-imports.js';
import { label, showLong } from './long-text.js';
import { StillSince } from './still-since.js';
import { ToolCallsView } from './tool-calls-view.js';

const ICONS: Readonly<Record<TreeStatus, string>> = { queued: '◌', running: '◐', done: '✔', failed: '✖', cancelled: '⊘' };

/** The elements of one node's row, and what it last showed. */
export interface NodeView {
  readonly li: DomElement;
  readonly row: DomElement;
  readonly icon: DomElement;
  readonly agent: DomElement;
  readonly desc: DomElement;
  readonly status: DomElement;
  readonly meta: DomElement;
  readonly stop: DomButton;
  /** When the stop button last appeared or moved: it stays disabled, and a click pressed within `SETTLE_MS` of it stops nothing. */
  readonly stopShown: StillSince;
  /** Its stop was sent: the button stays disabled. */
  stopping: boolean;
  readonly tool: DomElement;
  readonly error: DomElement;
  readonly tail: DomElement;
  readonly calls: ToolCallsView;
  readonly children: DomElement;
  /** The node the row shows (see `rowChange`). */
  drawn: TreeNode | undefined;
  /** The elapsed time the row shows (`3.2s`): a running row is written again only when it moves. */
  time: string;
}

/** A new, empty row for `node`, its elements put together (no listeners yet). `now`: the clock of the events' `timeStamp`. */
export function nodeView(node: TreeNode, isTask: boolean, now: () => number): NodeView {
  const stop = element<DomButton>('button', 'stop-task');
  stop.textContent = 'Stop';
  stop.title = 'Stop this task and its own tasks; the others go on';
  const view: NodeView = {
    li: element('li', isTask ? 'node task' : 'node root'), row: element('div', 'row'), icon: element('span', 'icon'),
    agent: element('span', 'agent'), desc: element('span', 'desc'), status: element('span', 'status-text'),
    meta: element('span', 'meta'), stop, stopShown: new StillSince(stop, now), stopping: false, tool: element('div', 'tool'), error: element('div', 'error'), tail: element('div', 'tail'),
    calls: new ToolCallsView(), children: element('ul', 'children'), drawn: undefined, time: '',
  };
  view.li.dataset.key = node.key;
  view.row.append(view.icon, view.agent, view.desc, view.status, view.meta, view.stop);
  view.li.append(view.row, view.tool, view.error, view.tail, view.calls.root, view.children);
  return view;
}

/** Writes the whole row of `node`, but for its stop button, which the tree shows and settles. */
export function fillRow(view: NodeView, node: TreeNode, isTask: boolean, now: number): void {
  if (view.li.dataset.status !== node.status) view.li.dataset.status = node.status;
  view.li.dataset.agent = node.agentName;
  if (node.taskId !== undefined) view.li.dataset.taskId = node.taskId;
  show(view.icon, ICONS[node.status]);
  show(view.agent, isTask ? `${label(node.agentName)} #${node.taskIndex ?? '?'}` : label(node.agentName));
  show(view.desc, label(node.description));
  show(view.status, node.status);
  view.time = timeText(node, now);
  show(view.meta, metaText(node, view.time));
  const doing = node.status === 'queued' ? 'waiting for a slot' : node.awaitingApproval ? `waiting for approval: ${label(node.awaitingApproval)}` : (node.currentTool ?? '');
  show(view.tool, doing ? `⚙ ${doing}` : '');
  showLong(view.error, node.error ?? '');
  show(view.tail, node.tail);
  view.calls.draw(node); // its calls read only when the list is open
  view.children.hidden = node.children.length === 0;
}

/**
 * A running row whose node did not change: its time is written when the text it shows
 * moves (each tenth of a second), else nothing is touched. Frames come on every event
 * batch and every 250 ms, and with 10,000 running tasks reading and writing each row's
 * text took 30 ms a frame.
 */
export function tickRow(view: NodeView, node: TreeNode, now: number): void {
  const time = timeText(node, now);
  if (time === view.time) return;
  view.time = time;
  view.meta.textContent = metaText(node, time);
}

/** The row's elapsed time, e.g. `3.2s`. */
function timeText(node: TreeNode, now: number): string {
  return `${(elapsedMs(node, now) / 1000).toFixed(1)}s`;
}

/**
 * The row's time (`timeText`), tokens, tool calls and compactions, e.g. `3.2s · 1,024 tok · 2 tool calls`.
 * The count is `toolCallCount`: `tools.length` would make the array of every call of a node
 * with many, each frame its node changed.
 */
function metaText(node: TreeNode, time: string): string {
  const tokens = node.tokens === undefined ? '' : ` · ${count(node.tokens)} tok`;
  const compacted = node.compactions === undefined ? '' : ` · compacted ${count(node.compactions)}×`;
  const calls = node.toolCallCount === 0 ? '' : ` · ${count(node.toolCallCount)} tool call${node.toolCallCount === 1 ? '' : 's'}`;
  return `${time}${tokens}${calls}${compacted}`;
}
