/**
 * An end settles what still runs under its run. A forged or broken stream (a replayed event
 * log, a hostile server) may end a run with thousands of tasks again and again: each end
 * must cost what it settles, not the whole tree (10,000 ends over 10,000 tasks took minutes,
 * the page frozen), and still settle a task started since the last end (the run resumed).
 */
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, type TaskTreeState } from '../../../src/adapters/task-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { referenceReduceTree } from './reference-reduce-tree.js';

const N = 10_000;
const metrics = { promptTokens: 1, completionTokens: 2, totalTokens: 3, durationMs: 4, tasks: 0 };

function wrap(i: number, event: AgentEvent): AgentEvent {
  return { type: 'TaskWrap', runId: `r${i}`, agentName: 'w', parentRunId: 'main', taskId: `t${i}`, taskIndex: i, taskAgentName: 'w', taskDescription: `task ${i}`, multitask: true, event };
}

const started = (i: number): AgentEvent => wrap(i, { type: 'RunStart', runId: `r${i}`, agentName: 'w', sessionId: `t${i}`, prompt: 'p' });
const mainEnd: AgentEvent = { type: 'RunEnd', runId: 'main', agentName: 'main', text: 'done', abnormal: false, metrics, steps: 1 };

describe('reduceTree with a run ended again and again', () => {
  it('settles only what still runs: 10,000 ends over 10,000 tasks, and a task started in between is settled by the next end', () => {
    let state: TaskTreeState = reduceTree(createTreeState(), { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' }, 0);
    for (let i = 1; i <= N; i += 1) state = reduceTree(state, started(i), i);
    state = reduceTree(state, wrap(5, { type: 'RunEnd', runId: 'r5', agentName: 'w', text: 'ok', abnormal: false, metrics, steps: 1 }), 1);
    for (let k = 0; k < N; k += 1) state = reduceTree(state, mainEnd, 100 + k);
    const children = state.root!.children;
    expect(children.filter((c) => c.status === 'failed')).toHaveLength(N - 1);
    expect(children[4]).toMatchObject({ status: 'done', tail: 'ok' });
    expect(children[0]).toMatchObject({ status: 'failed', error: 'ended without a result', endedAt: 100 });
    // one more task while the run has ended: ended at once, and the next end keeps its end
    state = reduceTree(state, started(N + 1), 1);
    expect(state.root!.children[N]).toMatchObject({ status: 'failed', error: 'came after its parent run had ended', endedAt: 1 });
    // the run restarted (resumed), one more task, then one more end: it is settled, the others keep their first end
    state = reduceTree(state, { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' }, 2);
    state = reduceTree(state, started(N + 2), 3);
    expect(state.root!.children[N + 1]!.status).toBe('running');
    state = reduceTree(state, mainEnd, 99_999);
    expect(state.root!.children[N + 1]).toMatchObject({ status: 'failed', endedAt: 99_999 });
    expect(state.root!.children[N]!.endedAt).toBe(1);
    expect(state.root!.children[0]!.endedAt).toBe(100);
    expect(state.result).toEqual({ text: 'done', abnormal: false });
  });

  it('a tree made elsewhere that repeats a key: an end settles both nodes, as a walk does', () => {
    let state: TaskTreeState = reduceTree(createTreeState(), { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' }, 0);
    state = reduceTree(state, started(1), 1);
    const root = state.root!;
    const forged: TaskTreeState = { root: { ...root, children: [root.children[0]!, { ...root.children[0]!, runId: 'other' }] } };
    const end = wrap(1, { type: 'RunCancelled', runId: 'r1', agentName: 'w', reason: 'stop' });
    const cancelled = reduceTree(forged, mainEnd, 2);
    expect(cancelled.root!.children.map((c) => c.status)).toEqual(['failed', 'failed']);
    expect(cancelled).toEqual(referenceReduceTree(forged, mainEnd, 2));
    expect(reduceTree(forged, end, 3)).toEqual(referenceReduceTree(forged, end, 3));
  });
});
