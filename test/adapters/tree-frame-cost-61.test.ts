/**
 * A terminal frame costs the lines it shows, not the tasks the run started: `renderTree`
 * with `lastLines` finds its rows walking from the end. It walked every node each frame
 * (20,000 tasks: about 48 ms a frame, redrawn every 80 ms). The work is counted here (the
 * nodes whose children are read, the children read), not timed: timing belongs in bench/.
 */
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, renderTree, type TaskTreeState, type TreeNode } from '../../src/adapters/terminal-tree/index.js';
import { FixtureRun } from './fixtures.js';

const ROWS = 24;

/** A run with `tasks` tasks under its main agent, each of the first three with two of its own. */
function tree(tasks: number): TaskTreeState {
  const main = new FixtureRun('r', 'main');
  let state = reduceTree(createTreeState(), main.start('go'), 0);
  for (let i = 1; i <= tasks; i += 1) {
    const task = main.task({ taskId: `t${i}`, agentName: 'general', description: `job ${i}`, taskIndex: i, multitask: true });
    state = reduceTree(state, task.start('x'), 0);
    if (i > 3) continue;
    for (let j = 1; j <= 2; j += 1) state = reduceTree(state, task.task({ taskId: `t${i}.${j}`, agentName: 'explore', description: `sub ${i}.${j}` }).start('y'), 0);
  }
  return state;
}

/** A plain copy of the tree whose `children` count how often they are opened, and each child read. */
function counted(state: TaskTreeState): { state: TaskTreeState; opened: () => number; read: () => number } {
  let opened = 0;
  let read = 0;
  const copy = (node: TreeNode): TreeNode => {
    const children = new Proxy(node.children.map(copy), {
      get: (target, key, receiver) => {
        if (typeof key === 'string' && /^\d+$/.test(key)) read += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const plain = { ...node };
    Object.defineProperty(plain, 'children', { enumerable: true, get: () => (opened += 1, children) });
    return plain;
  };
  return { state: { ...state, root: copy(state.root!) }, opened: () => opened, read: () => read };
}

describe('renderTree with lastLines', () => {
  it('reads about the nodes it draws, however many tasks the run started', () => {
    const { state, opened, read } = counted(tree(2_000));
    const frame = renderTree(state, { now: 0, width: 80, lastLines: ROWS });
    expect(frame.split('\n')).toHaveLength(ROWS);
    expect(frame).toContain('general#2000 job 2000');
    // the drawn rows, and the root above them: not the 2,000 tasks
    expect(opened()).toBeLessThanOrEqual(ROWS * 3);
    expect(read()).toBeLessThanOrEqual(ROWS * 3);
  });

  it('gives the whole drawing\'s last lines for every count, nested tasks and branches included', () => {
    const state = tree(6);
    const whole = renderTree(state, { now: 0, width: 80 }).split('\n');
    expect(whole).toHaveLength(1 + 6 + 3 * 2);
    expect(whole[2]).toBe('│  ├─ ⠋ explore sub 1.1 (0.0s)');
    for (let n = 0; n <= whole.length + 1; n += 1) {
      expect(renderTree(state, { now: 0, width: 80, lastLines: n })).toBe(whole.slice(whole.length - Math.min(n, whole.length)).join('\n'));
    }
    expect(renderTree(state, { now: 0, width: 80, lastLines: 2.7 })).toBe(whole.slice(-2).join('\n'));
    expect(renderTree(state, { now: 0, width: 80, lastLines: -3 })).toBe('');
  });
});
