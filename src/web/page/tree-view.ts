import { browser, element, show, type DomButton, type DomElement } from './dom.js';
import { elapsedMs, type TreeNode, type TreeStatus } from './client-imports.js';
import { label, showLong } from './long-text.js';
import { rowChange } from './row-change.js';
import { SETTLE_MS, StillSince } from './still-since.js';
import { ToolCallsView } from './tool-calls-view.js';

const ICONS: Readonly<Record<TreeStatus, string>> = { queued: '◌', running: '◐', done: '✔', failed: '✖', cancelled: '⊘' };

/** Stops one task (by its id); rejects with a message to show when the server refuses. */
export type StopTask = (taskId: string) => Promise<void>;

interface NodeView {
  readonly li: DomElement;
  readonly row: DomElement;
  readonly icon: DomElement;
  readonly agent: DomElement;
  readonly desc: DomElement;
  readonly status: DomElement;
  readonly meta: DomElement;
  readonly stop: DomButton;
  /** When the stop button last appeared or moved: it stays disabled, and a click pressed within {@link SETTLE_MS} of it stops nothing. */
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

/**
 * Draws the tree into a list: one `<li>` per node, made once and then updated in place, so
 * elements stay put while the run streams (readable, selectable, and stable for assistive
 * technology and tests). A redraw writes only the rows whose node changed, and the time of
 * those still running when the time it shows moved (see `rowChange`): with thousands of
 * tasks, the clock's redraw every 250 ms leaves the rest alone. A click on a row opens (or closes) its tool calls; a task
 * that is queued or running has a stop button. A stop button that just appeared, or that
 * moved because what is above the tree changed size (the approval cards came or went), is
 * disabled and takes no click pressed for {@link SETTLE_MS} (`StillSince`): the second click
 * of a double-click on Approve, its card gone, stops no task.
 */
export class TreeView {
  readonly #views = new Map<string, NodeView>();
  /** When what is above the tree last changed size, moving every row. */
  #movedAt = -Infinity;
  /** The rows whose stop button is settling, in the order it appeared or moved (so their ends come in order). */
  #settling: NodeView[] = [];
  #release: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly list: DomElement,
    private readonly stopTask?: StopTask,
    /** The clock of the events' `timeStamp`. */
    private readonly now: () => number = () => browser.performance.now(),
  ) {}

  /** The whole tree just moved under the pointer (what is above it changed size): its stop buttons wait `SETTLE_MS`. */
  moved(): void {
    this.#movedAt = this.now();
    for (const view of this.#views.values()) if (!view.stop.hidden) this.#settle(view);
  }

  /** Disables the row's stop button for {@link SETTLE_MS}: it just appeared or moved. */
  #settle(view: NodeView): void {
    view.stopShown.moved();
    view.stop.disabled = true;
    this.#settling.push(view);
    this.#release ??= setTimeout(() => this.#enableSettled(), SETTLE_MS);
  }

  /** Enables the stop buttons that stood still {@link SETTLE_MS}; waits for the next one. */
  #enableSettled(): void {
    this.#release = undefined;
    const now = this.now();
    let done = 0;
    for (const view of this.#settling) {
      const due = view.stopShown.since + SETTLE_MS;
      if (due > now) {
        this.#release = setTimeout(() => this.#enableSettled(), due - now);
        break;
      }
      done += 1;
      // a hidden one (its task ended meanwhile) is left alone: an ended row is never written again
      if (!view.stopping && !view.stop.hidden) view.stop.disabled = false;
    }
    this.#settling.splice(0, done);
  }

  /** Forgets every node (a new run). */
  clear(): void {
    this.#views.clear();
    this.#settling = [];
    this.list.replaceChildren();
  }

  /** Brings the list up to date with `root`. */
  draw(root: TreeNode | undefined, now: number): void {
    if (root !== undefined) this.#drawNode(root, false, this.list, now);
  }

  #drawNode(node: TreeNode, isTask: boolean, list: DomElement, now: number): void {
    const view = this.#viewOf(node, isTask);
    const change = rowChange(view.drawn, node);
    if (change === 'all') this.#fill(view, node, isTask, now);
    else if (change === 'time') this.#tick(view, node, now);
    view.drawn = node;
    // an unchanged node may still have running tasks under it, whose time moves
    for (const child of node.children) this.#drawNode(child, true, view.children, now);
    if (view.li.parentNode !== list) list.append(view.li);
  }

  /** Writes the whole row of `node`. */
  #fill(view: NodeView, node: TreeNode, isTask: boolean, now: number): void {
    if (view.li.dataset.status !== node.status) view.li.dataset.status = node.status;
    view.li.dataset.agent = node.agentName;
    if (node.taskId !== undefined) view.li.dataset.taskId = node.taskId;
    show(view.icon, ICONS[node.status]);
    show(view.agent, isTask ? `${label(node.agentName)} #${node.taskIndex ?? '?'}` : label(node.agentName));
    show(view.desc, label(node.description));
    show(view.status, node.status);
    view.time = timeText(node, now);
    show(view.meta, metaText(node, view.time));
    const noStop = !isTask || node.taskId === undefined || this.stopTask === undefined || (node.status !== 'running' && node.status !== 'queued');
    if (!noStop && (view.stop.hidden || view.drawn === undefined)) this.#settle(view);
    view.stop.hidden = noStop;
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
  #tick(view: NodeView, node: TreeNode, now: number): void {
    const time = timeText(node, now);
    if (time === view.time) return;
    view.time = time;
    view.meta.textContent = metaText(node, time);
  }

  #viewOf(node: TreeNode, isTask: boolean): NodeView {
    let view = this.#views.get(node.key);
    if (view === undefined) {
      const stop = element<DomButton>('button', 'stop-task');
      stop.textContent = 'Stop';
      stop.title = 'Stop this task and its own tasks; the others go on';
      view = {
        li: element('li', isTask ? 'node task' : 'node root'), row: element('div', 'row'), icon: element('span', 'icon'),
        agent: element('span', 'agent'), desc: element('span', 'desc'), status: element('span', 'status-text'),
        meta: element('span', 'meta'), stop, stopShown: new StillSince(stop, this.now), stopping: false, tool: element('div', 'tool'), error: element('div', 'error'), tail: element('div', 'tail'),
        calls: new ToolCallsView(), children: element('ul', 'children'), drawn: undefined, time: '',
      };
      const { li, calls, stopShown } = view;
      const thisView = view;
      view.li.dataset.key = node.key;
      view.row.append(view.icon, view.agent, view.desc, view.status, view.meta, view.stop);
      view.li.append(view.row, view.tool, view.error, view.tail, view.calls.root, view.children);
      // The row opens its tool calls; the stop button inside it does only its own job.
      view.row.addEventListener('click', () => {
        calls.toggle();
        li.classList.toggle('open', calls.open);
      });
      view.stop.addEventListener('click', (event) => {
        event.stopPropagation();
        const taskId = li.dataset.taskId;
        // aimed at what was there before it appeared or the tree moved: the user clicks again once it stood still
        if (taskId === undefined || this.stopTask === undefined || !stopShown.takes(event, this.#movedAt)) return;
        stop.disabled = thisView.stopping = true;
        this.stopTask(taskId).catch((error: unknown) => {
          stop.disabled = thisView.stopping = false;
          stop.title = `Could not stop it: ${error instanceof Error ? error.message : String(error)}`;
        });
      });
      this.#views.set(node.key, view);
    }
    return view;
  }
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
  const tokens = node.tokens === undefined ? '' : ` · ${node.tokens.toLocaleString('en-US')} tok`;
  const compacted = node.compactions === undefined ? '' : ` · compacted ${node.compactions}×`;
  const count = node.toolCallCount;
  const calls = count === 0 ? '' : ` · ${count} tool call${count === 1 ? '' : 's'}`;
  return `${time}${tokens}${calls}${compacted}`;
}
