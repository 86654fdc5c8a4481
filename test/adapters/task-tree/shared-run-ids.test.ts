/**
 * A forged or broken stream (a replayed event log, a hostile server) may have thousands of
 * tasks claim one run id. A task delegated by that run goes under the first of them in
 * drawing order, as a walk would find it; finding it must not look at every claimant for
 * every item (10,000 claimants and 10,000 tasks under them took minutes, the page frozen).
 */
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, type TaskTreeState } from '../../../src/adapters/task-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';

const N = 10_000;

function started(i: number, runId: string, parentRunId: string): AgentEvent {
  return {
    type: 'TaskWrap', runId, agentName: 'w', parentRunId, taskId: `t${i}`, taskIndex: i, taskAgentName: 'w', taskDescription: `task ${i}`, multitask: false,
    event: { type: 'RunStart', runId, agentName: 'w', sessionId: `t${i}`, prompt: 'p' },
  };
}

describe('reduceTree with thousands of tasks claiming one run id', () => {
  it('puts the tasks that run delegates under the first claimant, each found without a look at all the others', () => {
    let state: TaskTreeState = reduceTree(createTreeState(), { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' }, 0);
    for (let i = 0; i < N; i += 1) state = reduceTree(state, started(i, 'X', 'main'), i);
    for (let i = N; i < 2 * N; i += 1) state = reduceTree(state, started(i, `c${i}`, 'X'), i);
    const [first, second] = state.root!.children;
    expect(state.root!.children).toHaveLength(N);
    expect(first!.children).toHaveLength(N);
    expect(first!.children[N - 1]!.key).toBe(`X/t${2 * N - 1}`);
    // the first claimant runs another run now: the next claimant in drawing order takes over, and back
    state = reduceTree(state, started(0, 'Y', 'main'), 1);
    state = reduceTree(state, started(2 * N, 'late', 'X'), 2);
    expect(state.root!.children[1]!.children.map((c) => c.key)).toEqual([`X/t${2 * N}`]);
    state = reduceTree(state, started(0, 'X', 'main'), 3);
    state = reduceTree(state, started(2 * N + 1, 'later', 'X'), 4);
    expect(state.root!.children[0]!.children).toHaveLength(N + 1);
    expect(second!.children).toHaveLength(0);
  });
});
