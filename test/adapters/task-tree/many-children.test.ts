/**
 * A node with thousands of children: an item for one of them must not copy the list of all
 * (10,000 tasks in one multitask made each item copy 10,000 siblings), and the states stay
 * immutable all the same: every state, and every array read from one, keeps what it had.
 */
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, type TaskTreeState } from '../../../src/adapters/task-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { countReads } from './count-reads.js';

const N = 10_000;

function wrap(i: number, event: AgentEvent): AgentEvent {
  return { type: 'TaskWrap', runId: `child_${i}`, agentName: 'worker', parentRunId: 'main', taskId: `task_${i}`, taskIndex: i, taskAgentName: 'worker', taskDescription: `task ${i}`, multitask: true, event };
}

function delta(i: number, text: string): AgentEvent {
  return wrap(i, { type: 'ReasonDelta', runId: `child_${i}`, agentName: 'worker', step: 1, kind: 'text', text });
}

/** The main run with `N` tasks started under it. */
function manyTasks(): TaskTreeState {
  let state = reduceTree(createTreeState(), { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' }, 0);
  for (let i = 1; i <= N; i += 1) state = reduceTree(state, wrap(i, { type: 'RunStart', runId: `child_${i}`, agentName: 'worker', sessionId: `task_${i}`, prompt: 'p' }), i);
  return state;
}

describe('reduceTree under a node of 10,000 children', () => {
  it('an item for one task reads (so copies) none of its siblings\' list, nor does an item for the node itself', () => {
    const state = manyTasks();
    const reads = countReads(state.root!);
    const next = reduceTree(state, delta(5_000, 'hello'), 1);
    const readsNext = countReads(next.root!);
    const after = reduceTree(next, { type: 'ReasonDelta', runId: 'main', agentName: 'main', step: 1, kind: 'text', text: 'waiting' }, 2);
    expect(reads()).toBe(0);
    expect(readsNext()).toBe(0);
    expect(after.root!.tail).toBe('waiting');
    expect(after.root!.children[4_999]!.tail).toBe('hello');
  });

  it('keeps every earlier state, and every array read from one, as it was', () => {
    let state = manyTasks();
    const first = state;
    const firstChildren = first.root!.children; // read before the items below
    const states: TaskTreeState[] = [];
    for (let i = 1; i <= 20; i += 1) {
      state = reduceTree(state, delta(i * 400, `step ${i}`), 100 + i);
      states.push(state); // none read until the end
    }
    state = reduceTree(state, wrap(N + 1, { type: 'RunStart', runId: `child_${N + 1}`, agentName: 'worker', sessionId: 'late', prompt: 'p' }), 200);

    expect(first.root!.children).toBe(firstChildren); // the same array each read
    expect(firstChildren).toHaveLength(N);
    expect(firstChildren.every((child) => child.tail === '')).toBe(true);
    // the states in between, read now, each with exactly the items up to it
    states.forEach((s, k) => {
      const tails = s.root!.children.flatMap((child, i) => (child.tail === '' ? [] : [`${i + 1}: ${child.tail}`]));
      expect(tails).toEqual(Array.from({ length: k + 1 }, (_, j) => `${(j + 1) * 400}: step ${j + 1}`));
      expect(s.root!.children).toHaveLength(N);
    });
    expect(state.root!.children).toHaveLength(N + 1);
    expect(state.root!.children[N]!.key).toBe(`main/task_${N + 1}`);
    // an unchanged task is the same object in every state; a changed one is a new one
    expect(states[19]!.root!.children[0]).toBe(firstChildren[0]);
    expect(states[0]!.root!.children[399]).not.toBe(firstChildren[399]);
  });

  it('gives states that copy, spread, clone and serialise as plain data', () => {
    const state = reduceTree(manyTasks(), delta(2, 'x'), 1);
    const root = state.root!;
    expect(Object.keys(root)).toContain('children');
    expect({ ...root }.children).toEqual(root.children);
    expect(structuredClone(root).children[1]!.tail).toBe('x');
    expect((JSON.parse(JSON.stringify(state)) as TaskTreeState).root!.children).toHaveLength(N);
  });
});
