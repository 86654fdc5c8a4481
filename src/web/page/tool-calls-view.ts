import { element, show, type DomElement } from './dom.js';
import type { ToolCallRecord } from './client-imports.js';
import { showLong, visible } from './long-text.js';
import { showEarlier } from './show-earlier.js';

/** The most calls a list draws at first, and how many more each "show earlier" adds. */
export const CALLS_SHOWN = 200;

/**
 * A task's tool calls in order, under its row (hidden until the row is clicked): each with
 * its state, its arguments whole, its result or error, and the approval it needed with the
 * decision. Records only grow at the end or change in place, so items are made once and
 * updated. Only the last {@link CALLS_SHOWN} are drawn, with a button for earlier ones: all
 * of them at once took 9 s for 5,000 calls, 30 s for 20,000, on the click that opened them.
 */
export class ToolCallsView {
  /** The list, to put under the row. */
  readonly root: DomElement = element('ol', 'tool-calls');
  #open = false;
  /** What holds the latest calls: its `tools` is read only to render (see {@link draw}). */
  #latest: CallsHolder = { tools: [] };
  /** The drawn items by the call's place in `tools`: from `#from` to the last. */
  readonly #items = new Map<number, { readonly li: DomElement; record: ToolCallRecord | undefined }>();
  /** How many of the last calls to draw: grows by {@link CALLS_SHOWN} with each "show earlier". */
  #shown = CALLS_SHOWN;
  /** The place of the first call drawn; -1 before any. */
  #from = -1;
  /** The list's first item: the button that draws earlier calls, while there are some. */
  readonly #earlier = showEarlier('earlier-calls', 'calls', CALLS_SHOWN, (event) => {
    event.stopPropagation();
    this.#shown += CALLS_SHOWN;
    this.#render();
  });

  constructor() {
    this.root.hidden = true;
  }

  /** Whether the list shows. */
  get open(): boolean {
    return this.#open;
  }

  /** Shows or hides the list. */
  toggle(): void {
    this.#open = !this.#open;
    this.root.hidden = !this.#open;
    if (this.#open) this.#render();
  }

  /**
   * Keeps the node whose calls to show; drawn now only when the list shows. A closed list
   * costs nothing per item: its `tools` is not even read (on a node with many calls a read
   * makes the array of them all, for every new state of the node).
   */
  draw(holder: CallsHolder): void {
    this.#latest = holder;
    if (this.#open) this.#render();
  }

  #render(): void {
    const tools = this.#latest.tools;
    if (tools.length === 0) {
      if (this.#items.size === 0) this.root.textContent = 'No tool calls yet.';
      return;
    }
    const from = Math.max(0, tools.length - this.#shown);
    const added: DomElement[] = [];
    tools.slice(from).forEach((record, i) => {
      let item = this.#items.get(from + i);
      if (item === undefined) {
        item = { li: element('li', 'tool-call'), record: undefined };
        this.#items.set(from + i, item);
        added.push(item.li);
      }
      if (item.record !== record) {
        item.record = record;
        fill(item.li, record);
      }
    });
    // the same first call: only new ones at the end
    if (from === this.#from) return void this.root.append(...added);
    this.#from = from;
    for (const place of this.#items.keys()) if (place < from) this.#items.delete(place);
    this.#earlier.update(from);
    // the numbers of the items are the calls' own (the first drawn is call from + 1)
    this.root.style.setProperty('counter-reset', `list-item ${from}`);
    this.root.replaceChildren(this.#earlier.item, ...tools.slice(from).map((_, i) => this.#items.get(from + i)!.li));
  }
}

/** What a list shows the calls of: a tree node (`tools` is read only when the list renders). */
export interface CallsHolder {
  readonly tools: readonly ToolCallRecord[];
}

/** (Re)writes one call's item. */
function fill(li: DomElement, call: ToolCallRecord): void {
  li.dataset.status = call.status;
  li.dataset.tool = call.toolName;
  const head = element('div', 'call-head');
  show(head, `${STATUS_ICONS[call.status]} ${call.label}${call.durationMs === undefined ? '' : ` · ${(call.durationMs / 1000).toFixed(1)}s`} · step ${call.step}`);
  const args = element('pre', 'call-args');
  // JSON escapes controls but not what turns text around or hides (a bidi override, a zero-width space): marked, as on the card
  showLong(args, visible(JSON.stringify(call.args, null, 2)));
  const parts: DomElement[] = [head, args];
  if (call.approval !== undefined) {
    const approval = element('div', 'call-approval');
    const { decision, comment, timedOut, reason } = call.approval;
    const said = decision === undefined ? 'waiting for approval' : timedOut ? 'rejected: nobody answered in time' : decision === 'approve' ? 'approved' : 'rejected';
    // the reason and the comment are kept raw by the tree (a card marks the reason itself): marked here
    showLong(approval, visible(`${said}${comment ? ` (${comment})` : ''} · asked because: ${reason}`));
    approval.dataset.decision = decision ?? 'pending';
    parts.push(approval);
  }
  if (call.error !== undefined) {
    const error = element('pre', 'call-error');
    // cut and marked already by the tree (`toolEnded`, and a settle's reason): marked again here, its marks would garble
    showLong(error, call.error);
    parts.push(error);
  } else if (call.result !== undefined) {
    const result = element('pre', 'call-result');
    // cut and marked already by the tree, as an error is (`toolEnded`)
    show(result, call.result);
    parts.push(result);
  }
  li.replaceChildren(...parts);
}

const STATUS_ICONS: Readonly<Record<ToolCallRecord['status'], string>> = { running: '◐', waiting: '⏸', done: '✔', failed: '✖', cancelled: '⊘' };
