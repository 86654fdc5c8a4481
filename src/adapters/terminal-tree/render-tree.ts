import { styleText } from 'node:util';
import { headOf } from '../../text/whole-chars.js';
import { lastRows } from './last-rows.js';
import { truncateMarked } from './fit-line.js';
import { measuredUnits } from './text-line.js';
import { elapsedMs, type TaskTreeState, type TreeNode, type TreeStatus } from '../task-tree/tree-state.js';

/** Options of {@link renderTree}. */
export interface RenderTreeOptions {
  /** The current time (milliseconds): elapsed times and the spinner frame derive from it. */
  readonly now: number;
  /** Terminal columns; every line is cut to fit (default 80). */
  readonly width?: number;
  /** Colour with ANSI styles (default `false`). */
  readonly color?: boolean;
  /**
   * Draw only the last this many lines (default: all). A terminal frame shows only its last
   * `rows` lines (`log-update` cuts the rest), and only the lines drawn are found, measured
   * and styled: a frame of a tree with thousands of tasks then costs what the terminal shows.
   */
  readonly lastLines?: number;
}

type Style = Parameters<typeof styleText>[0];

interface Segment {
  readonly text: string;
  readonly style?: Style;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const SPINNER_FRAME_MS = 80;
const STATUS_STYLE: Readonly<Record<TreeStatus, Style>> = { queued: 'dim', running: 'cyan', done: 'green', failed: 'red', cancelled: 'yellow' };

/**
 * Draws the task tree as text: one line per run, box-drawing branches, a status icon
 * (`◌` queued, spinner while running, `✔` done, `✖` failed, `⊘` cancelled), the agent (`#index` under multitask), the
 * description, elapsed time, tokens and how often its session was compacted, then what it is doing now (tool, approval, streamed
 * text) or why it failed. A line longer than `width` columns (as `string-width` counts them:
 * emoji and CJK take two) is cut to fit and ends in `…`, before any colour is added.
 *
 * @example
 * ```ts
 * process.stdout.write(renderTree(state, { now: Date.now(), width: process.stdout.columns, color: true }) + '\n');
 * ```
 */
export function renderTree(state: TaskTreeState, options: RenderTreeOptions): string {
  if (state.root === undefined) return '';
  // Only the lines kept are found (walking from the end), measured and styled.
  const wanted = options.lastLines === undefined ? Infinity : Math.max(0, Math.floor(options.lastLines));
  const kept = lastRows(state.root, Number.isNaN(wanted) ? Infinity : wanted);
  const width = Math.max(1, Math.floor(options.width ?? 80));
  return kept.map(({ node, branch }) => fit([{ text: branch, style: 'gray' }, ...nodeSegments(node, options.now, width)], width, options.color === true)).join('\n');
}

function nodeSegments(node: TreeNode, now: number, width: number): Segment[] {
  // The reducer keeps a description, an error and a tool's name whole (the web page shows
  // them all), which may be megabytes (a pasted prompt, a server's error page). A line shows
  // `width` columns: only the start `truncate` measures goes into it, not the whole each frame.
  const shown = (text: string): string => headOf(text, measuredUnits(width));
  const icon = node.status === 'queued' ? '◌' : node.status === 'done' ? '✔' : node.status === 'failed' ? '✖' : node.status === 'cancelled' ? '⊘' : SPINNER[Math.floor(now / SPINNER_FRAME_MS) % SPINNER.length];
  const name = node.multitask && node.taskIndex !== undefined ? `${node.agentName}#${node.taskIndex}` : node.agentName;
  const meta = [
    formatDuration(elapsedMs(node, now)),
    ...(node.tokens === undefined ? [] : [`${node.tokens.toLocaleString('en-US')} tok`]),
    ...(node.compactions === undefined ? [] : [`compacted ${node.compactions}×`]),
  ];
  return [
    { text: `${icon ?? '•'} `, style: STATUS_STYLE[node.status] },
    { text: name, style: 'bold' },
    ...(node.description === '' ? [] : [{ text: ` ${shown(node.description)}` }]),
    { text: ` (${meta.join(', ')})`, style: 'dim' },
    ...detail(node, shown),
  ];
}

function detail(node: TreeNode, shown: (text: string) => string): Segment[] {
  if (node.status === 'failed') return [{ text: ` error: ${shown(node.error ?? 'failed')}`, style: 'red' }];
  if (node.status === 'cancelled') return [{ text: ` cancelled: ${shown(node.error ?? 'stopped')}`, style: 'yellow' }];
  if (node.awaitingApproval !== undefined) return [{ text: ` ⏸ approval: ${shown(node.awaitingApproval)}`, style: 'magenta' }];
  if (node.currentTool !== undefined) return [{ text: ` ▸ ${node.currentTool}`, style: 'yellow' }];
  if (node.tail !== '') return [{ text: ` › ${node.tail}`, style: 'gray' }];
  return [];
}

/**
 * Cuts the line to `width` columns as a whole (ending in `…`), then styles what is left. The
 * node's texts are marked (`<U+001B>`): the cut falls before a mark it would split, as `<U+00…`
 * would hide which character was there.
 */
function fit(segments: readonly Segment[], width: number, color: boolean): string {
  const cut = truncateMarked(segments.map((segment) => segment.text).join(''), width);
  if (!color) return cut;
  let out = '';
  let at = 0;
  for (const segment of segments) {
    // the cut line is a prefix of the whole plus `…` (never longer), so each segment takes
    // its own length of it; the `…` goes to the segment where the cut fell
    const text = cut.slice(at, at + segment.text.length);
    at += segment.text.length;
    // the caller chose colour for its own output; Node would otherwise check process.stdout
    out += segment.style !== undefined && text !== '' ? styleText(segment.style, text, { validateStream: false }) : text;
  }
  return out;
}

/**
 * `0.4s`, `12.3s`, `2m05s`: short enough for a tree line.
 *
 * @example
 * ```ts
 * formatDuration(125_000); // '2m05s'
 * ```
 */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)}s`;
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}
