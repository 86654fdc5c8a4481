import { element, show, type DomElement } from './dom.js';
import type { NodeStatus, PageNode } from './page-tree.js';

const ICONS: Readonly<Record<NodeStatus, string>> = { queued: '◌', running: '◐', done: '✔', failed: '✖' };

interface NodeView {
  readonly li: DomElement;
  readonly row: DomElement;
  readonly icon: DomElement;
  readonly agent: DomElement;
  readonly desc: DomElement;
  readonly status: DomElement;
  readonly meta: DomElement;
  readonly tool: DomElement;
  readonly error: DomElement;
  readonly tail: DomElement;
  readonly children: DomElement;
}

/**
 * Draws the tree into a list: one `<li>` per node, made once and then updated in place, so
 * elements stay put while the run streams (readable, selectable, and stable for assistive
 * technology and tests).
 */
export class TreeView {
  readonly #views = new Map<string, NodeView>();

  constructor(private readonly list: DomElement) {}

  /** Forgets every node (a new run). */
  clear(): void {
    this.#views.clear();
    this.list.replaceChildren();
  }

  /** Brings the list up to date with `root`. */
  draw(root: PageNode | undefined, now: number): void {
    if (root !== undefined) this.#drawNode(root, false, this.list, now);
  }

  #drawNode(node: PageNode, isTask: boolean, list: DomElement, now: number): void {
    const view = this.#viewOf(node, isTask);
    if (view.li.dataset.status !== node.status) view.li.dataset.status = node.status;
    view.li.dataset.agent = node.agent;
    const elapsed = node.durationMs ?? (node.endedAt ?? now) - node.startedAt;
    show(view.icon, ICONS[node.status]);
    show(view.agent, isTask ? `${node.agent} #${node.taskIndex ?? '?'}` : node.agent);
    show(view.desc, node.description);
    show(view.status, node.status);
    const compacted = node.compactions === 0 ? '' : ` · compacted ${node.compactions}×`;
    show(view.meta, `${(elapsed / 1000).toFixed(1)}s${node.tokens === undefined ? '' : ` · ${node.tokens.toLocaleString('en-US')} tok`}${compacted}`);
    show(view.tool, node.tool ? `⚙ ${node.tool}` : '');
    show(view.error, node.error);
    show(view.tail, node.tail);
    view.children.hidden = node.children.length === 0;
    for (const child of node.children) this.#drawNode(child, true, view.children, now);
    if (view.li.parentNode !== list) list.append(view.li);
  }

  #viewOf(node: PageNode, isTask: boolean): NodeView {
    let view = this.#views.get(node.key);
    if (view === undefined) {
      view = {
        li: element('li', isTask ? 'node task' : 'node root'), row: element('div', 'row'), icon: element('span', 'icon'),
        agent: element('span', 'agent'), desc: element('span', 'desc'), status: element('span', 'status-text'),
        meta: element('span', 'meta'), tool: element('div', 'tool'), error: element('div', 'error'), tail: element('div', 'tail'),
        children: element('ul', 'children'),
      };
      view.li.dataset.key = node.key;
      view.row.append(view.icon, view.agent, view.desc, view.status, view.meta);
      view.li.append(view.row, view.tool, view.error, view.tail, view.children);
      this.#views.set(node.key, view);
    }
    return view;
  }
}
