/**
 * A hostile stream that builds depth without nesting: each `TaskWrap` is flat (one level),
 * but names the run of the task before it as its `parentRunId`, so each new task goes under
 * the last. The tree must stay within its 64 levels (a 7,000-deep chain overflowed the
 * stack out of the reducer, and each item cost its depth), and the tasks it does keep still
 * take their events.
 */
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, treeRows, type TaskTreeState } from '../../../src/adapters/task-tree/index.js';
import { renderTree } from '../../../src/adapters/terminal-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';

const metrics = { promptTokens: 1, completionTokens: 1, totalTokens: 2, durationMs: 1, tasks: 0 };
const runStart = (runId: string): AgentEvent => ({ type: 'RunStart', runId, agentName: 'x', sessionId: 's', prompt: 'p' });
const runEnd = (runId: string): AgentEvent => ({ type: 'RunEnd', runId, agentName: 'x', text: 'ok', abnormal: false, metrics, steps: 1 });

/** Task `i` of the chain, run `run_i`, as a child of run `run_(i-1)`. */
const wrap = (i: number, event: AgentEvent): AgentEvent => ({
  type: 'TaskWrap', runId: `run_${i}`, agentName: 'x', parentRunId: `run_${i - 1}`, taskId: `task_${i}`,
  taskIndex: 1, taskAgentName: 'x', taskDescription: `level ${i}`, multitask: false, event,
});

function depthOf(state: TaskTreeState): number {
  return Math.max(...treeRows(state).map((row) => row.depth));
}

describe('a chain of flat TaskWraps, each under the run of the one before', () => {
  it('keeps 64 levels and leaves out the task that would be the 65th (the tree unchanged)', () => {
    let state = reduceTree(createTreeState(), runStart('run_0'), 0);
    for (let i = 1; i <= 64; i++) state = reduceTree(state, wrap(i, runStart(`run_${i}`)), i);
    expect(depthOf(state)).toBe(64);
    expect(reduceTree(state, wrap(65, runStart('run_65')), 65).root).toBe(state.root);
    const lines = renderTree(state, { now: 0, width: 400 }).split('\n');
    expect(lines).toHaveLength(65);
    expect(lines.at(-1)).toContain('x level 64');
  });

  it('a chain of 5,000 never goes past 64 levels: it folds, draws and lists without a stack overflow', () => {
    let state = reduceTree(createTreeState(), runStart('run_0'), 0);
    // a task whose parent run was left out is unknown to the tree, so it goes under the root (the rule for any unknown parent)
    for (let i = 1; i <= 5_000; i++) state = reduceTree(state, wrap(i, runStart(`run_${i}`)), i);
    expect(depthOf(state)).toBe(64);
    expect(renderTree(state, { now: 0, width: 400 }).split('\n').length).toBe(treeRows(state).length);
  });

  it('the tasks kept still end by their events; the run\'s end settles them', () => {
    let state = reduceTree(createTreeState(), runStart('run_0'), 0);
    for (let i = 1; i <= 100; i++) state = reduceTree(state, wrap(i, runStart(`run_${i}`)), i);
    state = reduceTree(state, wrap(64, runEnd('run_64')), 200);
    const rows = treeRows(state);
    expect(rows.find((row) => row.depth === 64)?.node.status).toBe('done');
    state = reduceTree(state, runEnd('run_0'), 300);
    expect(treeRows(state).every((row) => row.node.status !== 'running')).toBe(true);
  });

  it('an event nested twice whose outer task would go past 64 levels is left out, not placed at the root', () => {
    let state = reduceTree(createTreeState(), runStart('run_0'), 0);
    for (let i = 1; i <= 64; i++) state = reduceTree(state, wrap(i, runStart(`run_${i}`)), i);
    // the outer frame (task 65 under run 64) is too deep; its inner task must not escape to the root
    const twice: AgentEvent = wrap(65, { ...(wrap(66, runStart('run_66')) as object), parentRunId: 'run_65' } as AgentEvent);
    const next = reduceTree(state, twice, 70);
    expect(depthOf(next)).toBe(64);
    expect(next.root!.children).toHaveLength(1);
    expect(treeRows(next)).toHaveLength(65);
  });
});
