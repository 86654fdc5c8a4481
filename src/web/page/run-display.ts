/**
 * The run the page shows, drawn from one state (folded by `reduceTree`, the reducer the
 * terminal tree uses too) into the tree, the timeline, the approval cards and the answer box.
 * Events come faster than the screen changes, so a new state is drawn on the next frame, once.
 *
 * @module
 */
import { createTreeState, waitingApprovals, type TaskTreeState } from './client-imports.js';
import type { ApprovalsView } from './approvals-view.js';
import { browser, byId } from './dom.js';
import { showLong } from './long-text.js';
import type { TimelineView } from './timeline-view.js';
import type { TreeView } from './tree-view.js';

/** Draws the run's state into the page's views. */
export class RunDisplay {
  #state: TaskTreeState = createTreeState();
  #drawQueued = false;
  /** The result the answer box shows: it is written once, not each frame (it may be megabytes). */
  #answered: TaskTreeState['result'];

  constructor(
    private readonly tree: TreeView,
    private readonly timeline: TimelineView,
    private readonly approvals: ApprovalsView,
  ) {}

  /** The state shown (or about to be, on the next frame). */
  get state(): TaskTreeState {
    return this.#state;
  }

  /** Shows `next` on the next frame. */
  showSoon(next: TaskTreeState): void {
    this.#state = next;
    this.queueDraw();
  }

  /** Shows `next` now: once the page says a run ended, its tree and answer already show the end (a queued frame may come later, or never in a hidden tab). */
  showNow(next: TaskTreeState): void {
    this.#state = next;
    this.draw();
  }

  /** Empties the tree, the timeline and the answer (a new run). */
  clear(): void {
    this.#answered = undefined;
    this.tree.clear();
    this.timeline.clear();
    this.showNow(createTreeState());
  }

  /** Draws on the next frame, once however often it is asked for before then. */
  queueDraw(): void {
    if (this.#drawQueued) return;
    this.#drawQueued = true;
    browser.requestAnimationFrame(() => this.draw());
  }

  private draw(): void {
    this.#drawQueued = false;
    const now = Date.now();
    const run = this.#state;
    this.tree.draw(run.root, now);
    this.timeline.draw(run, now);
    this.approvals.draw(waitingApprovals(run));
    const result = run.result;
    byId('answer').hidden = result === undefined;
    if (result !== undefined && result !== this.#answered) {
      this.#answered = result;
      byId('answer').classList.toggle('failed', result.abnormal);
      showLong(byId('answer-text'), result.abnormal ? `The run failed: ${result.error}\n\n${result.text}` : result.text);
    }
  }
}
