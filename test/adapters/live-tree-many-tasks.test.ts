/**
 * A terminal redraw of a tree with thousands of tasks (a model may start 200 per `multitask`
 * call, every step) costs what the terminal shows, not the whole tree: `log-update` keeps
 * only the last `rows` lines of a frame, but measured and wrapped every line first (about
 * 1 ms a line): a frame of 1,000 tasks took over a second, redrawn every 80 ms, and the
 * process did little else.
 */
import { Writable } from 'node:stream';
import { asyncScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, renderTree, type TaskTreeState, type TreeNode } from '../../src/adapters/terminal-tree/index.js';
import { ttyView } from '../../src/adapters/terminal-tree/tree-views.js';
import { FixtureRun } from './fixtures.js';

const TASKS = 1_000;
const ROWS = 24;

/** A run with `TASKS` tasks under its main agent. */
function bigTree(): TaskTreeState {
  const main = new FixtureRun('r', 'main');
  let state = reduceTree(createTreeState(), main.start('go'), 0);
  for (let i = 1; i <= TASKS; i += 1) {
    const task = main.task({ taskId: `t${i}`, agentName: 'general', description: `job ${i}`, taskIndex: i, multitask: true });
    state = reduceTree(state, task.start('x'), 0);
  }
  return state;
}

/** The same tree, each task counting how often its description is read (once per line drawn). */
function counted(state: TaskTreeState): { state: TaskTreeState; reads: () => number } {
  let reads = 0;
  const count = (node: TreeNode): TreeNode => {
    const copy = { ...node };
    Object.defineProperty(copy, 'description', { enumerable: true, get: () => (reads += 1, node.description) });
    return copy;
  };
  const root = state.root!;
  return { state: { ...state, root: { ...root, children: root.children.map(count) } }, reads: () => reads };
}

function fakeTty() {
  const writes: string[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _encoding, callback) => (writes.push(chunk.toString()), callback()) });
  return { output: Object.assign(stream, { isTTY: true, columns: 80, rows: ROWS }), text: () => writes.join('') };
}

describe('a live tree of thousands of tasks on a terminal', () => {
  it('draws only the lines the terminal shows: the last ones, as log-update keeps them', () => {
    const { state, reads } = counted(bigTree());
    const { output, text } = fakeTty();
    const view = ttyView({ output, intervalMs: 80, scheduler: asyncScheduler, color: false, showResult: false });
    const event = new FixtureRun('r', 'main').start('go');

    try {
      view.update(state, event); // the first event draws at once
      expect(reads()).toBeLessThanOrEqual(2 * ROWS);
      expect(text()).toContain(`general#${TASKS} job ${TASKS}`);
      expect(text()).not.toContain('general#1 job 1 ');
    } finally {
      view.close(state); // the last frame, and the redraw timer stopped
    }
    expect(reads()).toBeLessThanOrEqual(4 * ROWS);
  });

  it("renderTree's lastLines gives the whole tree's last lines, branches and all", () => {
    const state = bigTree();
    const whole = renderTree(state, { now: 0, width: 80 }).split('\n');
    expect(renderTree(state, { now: 0, width: 80, lastLines: ROWS }).split('\n')).toEqual(whole.slice(-ROWS));
    expect(renderTree(state, { now: 0, width: 80, lastLines: TASKS * 2 })).toBe(whole.join('\n'));
    expect(renderTree(state, { now: 0, width: 80, lastLines: 0 })).toBe('');
  });
});
