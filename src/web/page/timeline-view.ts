import { count } from './count.js';
import { element, show, type DomElement } from './dom.js';
import { tokensByAgent, treeRows, type TaskTreeState, type TreeNode } from './client-imports.js';
import { label } from './long-text.js';
import { tokenLine } from './token-line.js';

/** The most lanes the chart draws. */
export const MAX_LANES = 1000;

interface Lane {
  readonly lane: DomElement;
  readonly label: DomElement;
  readonly bar: DomElement;
  readonly wait: DomElement;
  /** The node the lane shows, and at which depth (a lane is written only when they change). */
  drawn: TreeNode | undefined;
  depth: number;
}

/**
 * The run as a picture: one lane per task (nested by indentation, in tree order), a bar from
 * when it started to when it ended (or now), coloured by its state, with the time it waited
 * for a slot hatched before it. Parallel tasks show as overlapping bars. Below it, the tokens
 * each agent used and the run's total.
 *
 * A frame writes only what moved. The bars are placed by CSS (page.css) from times in
 * custom properties: each bar's own (`--start`, `--end`, `--waited`, in milliseconds after
 * the run's start), written when its node changes, and the chart's span (`--from`, `--span`)
 * and `--now`, which a bar still going ends at, written once a frame. The clock's redraw
 * every 250 ms rewrote every lane: with 10,000 tasks each frame took seconds. The chart
 * draws the first {@link MAX_LANES} rows and says how many more there are (the tree lists
 * them all): a picture of 10,000 bars shows nothing, and each of them costs every frame.
 */
export class TimelineView {
  readonly #lanes = new Map<string, Lane>();
  /** The lanes' keys in the order they are shown, to put a late nested task under its parent. */
  #order = '';
  /** The time the custom properties count from (the first run's start): small numbers for CSS. */
  #origin: number | undefined;
  /** Says how many tasks have no lane (past {@link MAX_LANES}); the chart's last child. */
  readonly #more: DomElement = element('div', 'more-lanes');

  constructor(
    private readonly section: DomElement,
    private readonly chart: DomElement,
    private readonly tokens: DomElement,
  ) {}

  /** Forgets the lanes (a new run). */
  clear(): void {
    this.#lanes.clear();
    this.#order = '';
    this.#origin = undefined;
    this.chart.replaceChildren();
    this.section.hidden = true;
  }

  /** Brings the picture up to date. */
  draw(state: TaskTreeState, now: number): void {
    const rows = treeRows(state);
    const root = state.root;
    this.section.hidden = root === undefined || rows.length < 2;
    if (root === undefined) return;
    const origin = (this.#origin ??= root.startedAt);
    const { from, to } = chartSpan(rows, root, now);
    this.chart.style.setProperty('--from', String(from - origin));
    this.chart.style.setProperty('--span', String(to - from));
    this.chart.style.setProperty('--now', String(now - origin));
    const shown = rows.length > MAX_LANES ? rows.slice(0, MAX_LANES) : rows;
    for (const { node, depth } of shown) {
      const lane = this.#laneOf(node);
      if (lane.drawn !== node || lane.depth !== depth) fillLane(lane, node, depth, origin);
    }
    const order = shown.map(({ node }) => node.key).join('\n');
    if (order !== this.#order) {
      this.#order = order;
      this.chart.replaceChildren(...shown.map(({ node }) => this.#laneOf(node).lane), this.#more);
    }
    const more = rows.length - shown.length;
    show(this.#more, more === 0 ? '' : `… and ${count(more)} more tasks, not drawn here (the tree lists every one)`);
    show(this.tokens, tokenLine(root.tokens, tokensByAgent(state)));
  }

  #laneOf(node: TreeNode): Lane {
    let lane = this.#lanes.get(node.key);
    if (lane === undefined) {
      lane = { lane: element('div', 'lane'), label: element('span', 'label'), bar: element('div', 'bar'), wait: element('span', 'wait'), drawn: undefined, depth: -1 };
      const track = element('div', 'track');
      lane.bar.append(lane.wait);
      track.append(lane.bar);
      lane.lane.append(lane.label, track);
      lane.lane.dataset.key = node.key;
      this.#lanes.set(node.key, lane);
    }
    return lane;
  }
}

/** Writes a lane for `node`: its label, state and times (a bar still going ends at the chart's `--now`). */
function fillLane(lane: Lane, node: TreeNode, depth: number, origin: number): void {
  lane.drawn = node;
  lane.depth = depth;
  lane.bar.dataset.status = node.status;
  lane.lane.dataset.status = node.status;
  lane.label.style.setProperty('padding-left', `${depth * 0.8}rem`);
  show(lane.label, node.taskIndex === undefined ? label(node.agentName) : `${label(node.agentName)} #${node.taskIndex}`);
  // a bar still going would need its title rewritten every frame for its time: the tree's row shows that
  const took = node.endedAt === undefined ? '' : `, ${((node.endedAt - node.startedAt) / 1000).toFixed(1)}s`;
  lane.label.title = `${label(node.description)} (${node.status}${took})`;
  lane.bar.style.setProperty('--start', String(node.startedAt - origin));
  lane.bar.style.setProperty('--end', node.endedAt === undefined ? 'var(--now)' : String(node.endedAt - origin));
  const waited = node.queuedAt === undefined ? 0 : node.startedAt - node.queuedAt;
  lane.wait.hidden = waited <= 0;
  lane.bar.style.setProperty('--waited', String(Math.max(0, waited)));
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
