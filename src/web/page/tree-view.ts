import { browser, type DomElement } from './dom.js';
import type { TreeNode } from './client-imports.js';
import { rowChange } from './row-change.js';
import { SETTLE_MS } from './still-since.js';
import { fillRow, nodeView, tickRow, type NodeView } from './tree-row.js';

/** Stops one task (by its id); rejects with a message to show when the server refuses. */
export type StopTask = (taskId: string) => Promise<void>;

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
    else if (change === 'time') tickRow(view, node, now);
    view.drawn = node;
    // an unchanged node may still have running tasks under it, whose time moves
    for (const child of node.children) this.#drawNode(child, true, view.children, now);
    if (view.li.parentNode !== list) list.append(view.li);
  }

  /** Writes the whole row of `node`, and shows its stop button (settling) while its task can be stopped. */
  #fill(view: NodeView, node: TreeNode, isTask: boolean, now: number): void {
    fillRow(view, node, isTask, now);
    const noStop = !isTask || node.taskId === undefined || this.stopTask === undefined || (node.status !== 'running' && node.status !== 'queued');
    if (!noStop && (view.stop.hidden || view.drawn === undefined)) this.#settle(view);
    view.stop.hidden = noStop;
  }

  #viewOf(node: TreeNode, isTask: boolean): NodeView {
    let view = this.#views.get(node.key);
    if (view === undefined) {
      view = nodeView(node, isTask, this.now);
      const { li, calls, stop, stopShown } = view;
      const thisView = view;
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
