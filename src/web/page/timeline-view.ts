import { element, show, type DomElement } from './dom.js';
import { tokensByAgent, treeRows, type TaskTreeState, type TreeNode } from './client-imports.js';

interface Lane {
  readonly lane: DomElement;
  readonly label: DomElement;
  readonly bar: DomElement;
  readonly wait: DomElement;
}

/**
 * The run as a picture: one lane per task (nested by indentation, in tree order), a bar from
 * when it started to when it ended (or now), coloured by its state, with the time it waited
 * for a slot hatched before it. Parallel tasks show as overlapping bars. Below it, the tokens
 * each agent used and the run's total.
 */
export class TimelineView {
  readonly #lanes = new Map<string, Lane>();
  /** The lanes' keys in the order they are shown, to put a late nested task under its parent. */
  #order = '';

  constructor(
    private readonly section: DomElement,
    private readonly chart: DomElement,
    private readonly tokens: DomElement,
  ) {}

  /** Forgets the lanes (a new run). */
  clear(): void {
    this.#lanes.clear();
    this.#order = '';
    this.chart.replaceChildren();
    this.section.hidden = true;
  }

  /** Brings the picture up to date. */
  draw(state: TaskTreeState, now: number): void {
    const rows = treeRows(state);
    const root = state.root;
    this.section.hidden = root === undefined || rows.length < 2;
    if (root === undefined) return;
    const { from, to } = chartSpan(rows, root, now);
    const percent = (at: number): string => `${(((at - from) / (to - from)) * 100).toFixed(2)}%`;
    for (const { node, depth } of rows) {
      const lane = this.#laneOf(node);
      const end = node.endedAt ?? now;
      lane.bar.dataset.status = node.status;
      lane.lane.dataset.status = node.status;
      lane.label.style.setProperty('padding-left', `${depth * 0.8}rem`);
      show(lane.label, node.taskIndex === undefined ? node.agentName : `${node.agentName} #${node.taskIndex}`);
      lane.label.title = `${node.description} (${node.status}, ${((end - node.startedAt) / 1000).toFixed(1)}s)`;
      lane.bar.style.setProperty('left', percent(node.startedAt));
      lane.bar.style.setProperty('width', `${(((end - node.startedAt) / (to - from)) * 100).toFixed(2)}%`);
      const waited = node.queuedAt === undefined ? 0 : node.startedAt - node.queuedAt;
      lane.wait.hidden = waited <= 0;
      lane.wait.style.setProperty('width', `${((waited / Math.max(1, end - node.startedAt)) * 100).toFixed(2)}%`);
    }
    const order = rows.map(({ node }) => node.key).join('\n');
    if (order !== this.#order) {
      this.#order = order;
      for (const { node } of rows) this.chart.append(this.#laneOf(node).lane);
    }
    const totals = [...tokensByAgent(state)].map(([agent, tokens]) => `${agent} ${tokens.toLocaleString('en-US')}`);
    show(this.tokens, root.tokens === undefined ? '' : `Tokens: ${root.tokens.toLocaleString('en-US')} for the run (${totals.join(', ')})`);
  }

  #laneOf(node: TreeNode): Lane {
    let lane = this.#lanes.get(node.key);
    if (lane === undefined) {
      lane = { lane: element('div', 'lane'), label: element('span', 'label'), bar: element('div', 'bar'), wait: element('span', 'wait') };
      const track = element('div', 'track');
      lane.bar.append(lane.wait);
      track.append(lane.bar);
      lane.lane.append(lane.label, track);
      lane.lane.dataset.key = node.key;
      this.chart.append(lane.lane);
      this.#lanes.set(node.key, lane);
    }
    return lane;
  }
}

/**
 * The times the chart spans: from the first task queued or started to the last end (now for
 * the ones still going), at least 1 ms. Folded in a loop, not spread into `Math.min`: a run of
 * 200,000 tasks is 200,000 arguments, past what a call takes (a RangeError each redraw).
 */
export function chartSpan(rows: readonly { readonly node: TreeNode }[], root: TreeNode, now: number): { readonly from: number; readonly to: number } {
  let from = Infinity;
  let last = root.endedAt ?? now;
  for (const { node } of rows) {
    from = Math.min(from, node.queuedAt ?? node.startedAt);
    last = Math.max(last, node.endedAt ?? (isGoing(node) ? now : node.startedAt));
  }
  return { from, to: Math.max(from + 1, last) };
}

function isGoing(node: TreeNode): boolean {
  return node.status === 'running' || node.status === 'queued';
}
